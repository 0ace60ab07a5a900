#pragma once

#include "tensor/TensorSource.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// A Synalinks `.variables.json` file (Program.save_variables, ProgramCheckpoint
// with save_variables_only) as a TensorSource. The file is the program's state
// tree: an object whose top keys are "trainable_variables",
// "non_trainable_variables", "optimizer_trainable_variables",
// "optimizer_non_trainable_variables" and "metrics_variables", each a tree of
// objects keyed by the variable path split on "/", down to each variable's JSON
// fields. A numeric field (a number, or a rectangular array of numbers) is a
// float64 tensor named by its full path ("trainable_variables/generator/
// temperature"); text fields (instructions, examples) are counted, not listed.
// The optimizer's and the metrics' variables are marked optimizer state.
//
// The JSON is read with a SAX parser that keeps only the numbers, and files over
// kMaxBytes are refused, so memory stays bounded by the numbers' size.
class SynalinksVariables final : public TensorSource
{
public:
    static constexpr std::uint64_t kMaxBytes = 64ull << 20;
    static constexpr std::uint64_t kMaxElements = 8ull << 20;
    static constexpr std::string_view kSuffix = ".variables.json";

    static Result<std::unique_ptr<TensorSource>> open(const std::string& path);
    static bool sniff(std::string_view head, std::string_view fileName);
    static TensorFormat tensorFormat();

    std::string_view format() const override { return "synalinks"; }
    const std::string& path() const override { return m_path; }
    const std::vector<TensorInfo>& tensors() const override { return m_tensors; }
    std::vector<std::pair<std::string, std::string>> attributes() const override;
    Status read(std::size_t index, std::uint64_t first, std::uint64_t count,
                void* out) const override;

private:
    friend class SynalinksSax;
    std::string m_path;
    std::vector<TensorInfo> m_tensors;
    std::vector<std::uint64_t> m_offsets; // first value of each tensor in m_values
    std::vector<double> m_values;
    std::uint64_t m_textFields = 0;
    std::vector<std::string> m_groups; // top-level keys in file order
};

} // namespace ckpt
