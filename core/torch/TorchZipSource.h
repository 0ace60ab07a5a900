#pragma once

#include "tensor/TensorSource.h"
#include "torch/TorchPickle.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct zip;
struct zip_file;

namespace ckpt {

// A torch.save zip archive (`<root>/data.pkl`, `<root>/data/<key>`,
// `<root>/version`, `<root>/byteorder`) as a TensorSource: data.pkl is read by
// TorchPickle (never executed) into the list of tensors; elements are read on
// demand from `data/<key>` at the tensor's storage offset: stored entries (what
// torch writes) by seeking, compressed ones by streaming forward with zip_fread
// (a block after the previous one continues where it stopped). Lightning's
// .ckpt is such an archive: its tensors are `state_dict/<name>` and
// `optimizer_states/0/state/<i>/<exp_avg...>` (optimizer state).
class TorchZipSource final : public TensorSource
{
public:
    // data.pkl larger than this is refused (a state dict's pickle is KBs to MBs).
    static constexpr std::uint64_t kPickleLimit = 64ull << 20;

    ~TorchZipSource() override;

    static Result<std::unique_ptr<TensorSource>> open(const std::string& path);
    // A zip whose first 4 KiB name a `<root>/data.pkl` entry.
    static bool sniff(std::string_view head, std::string_view fileName);

    std::string_view format() const override { return "torch"; }
    const std::string& path() const override { return m_path; }
    const std::vector<TensorInfo>& tensors() const override { return m_infos; }
    std::vector<std::pair<std::string, std::string>> attributes() const override
    {
        return m_attributes;
    }
    std::vector<std::string> problems() const override { return m_problems; }
    Status read(std::size_t index, std::uint64_t first, std::uint64_t count,
                void* out) const override;

private:
    TorchZipSource() = default;
    void closeCursor() const;
    // `count` elements of tensor `index`'s storage from storage element `element`.
    Status readStorage(std::size_t index, std::uint64_t element, std::uint64_t count,
                       char* dst) const;

    std::string m_path;
    std::string m_root;
    zip* m_zip = nullptr;
    std::vector<TensorInfo> m_infos;
    std::vector<TorchTensorRef> m_refs;
    std::vector<std::int64_t> m_entryOf; // zip index of each tensor's storage, -1 when absent
    std::vector<std::pair<std::string, std::string>> m_attributes;
    std::vector<std::string> m_problems;
    // The compressed entry being streamed and where its read position is.
    mutable zip_file* m_cursor = nullptr;
    mutable std::int64_t m_cursorEntry = -1;
    mutable std::uint64_t m_cursorPos = 0;
};

} // namespace ckpt
