#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ckpt::test {

// Model files as Keras writes them, built with H5Writer. Values come from a
// seeded generator so tests can recompute them independently.
class ModelFixtures
{
public:
    static std::vector<float> values(std::size_t n, std::uint32_t seed, float scale = 1.0f);

    // Keras 2 full model: root attrs keras_version/backend/model_config/
    // training_config; model_weights with layer_names split into layer_names0/1;
    // layers dense (kernel 4x3, bias 3), dense_1 (kernel 3x2, bias 2) and dropout
    // (no weights); optimizer_weights with weight_names.
    static void keras2Model(const std::filesystem::path& file, std::uint32_t seed = 1);
    // Keras 2 weights-only: the model_weights content at the root.
    static void keras2Weights(const std::filesystem::path& file, std::uint32_t seed = 1);
    // Keras 3 weights file: layers/dense/vars/{0,1}, layers/dense_1/vars/{0,1}
    // (vars/0 of dense_1 in bfloat16), optimizer/vars/{0,1}.
    static void keras3Weights(const std::filesystem::path& file, std::uint32_t seed = 1);

    static std::string modelConfigJson();
    // A damaged Keras 2 model (the demo's, a few bytes changed by a mutation
    // search) that crashes Debian's libhdf5 1.10 in-process, kept in
    // tests/hdf5/crashers/: "global-heap-read.h5" (SIGSEGV in H5HG_read
    // reading a variable-length string attribute).
    static std::filesystem::path crasher(const std::string& name);
    // /dense/kernel: 64 float32 of `kernel` in deflated chunks of 16; /dense/bias
    // {1, 2, `biasLast`}. `torn`: the kernel's chunk at 16 does not inflate
    // (H5Writer::corruptChunk), the rest of the file is good.
    static void denseModel(const std::filesystem::path& file, float kernel, float biasLast,
                           bool torn = false);
    static void writeBytes(const std::filesystem::path& file, const std::string& bytes);
    static std::string readBytes(const std::filesystem::path& file);
    // A zip archive holding the named entries.
    static void zip(const std::filesystem::path& file,
                    const std::vector<std::pair<std::string, std::string>>& entries);
};

} // namespace ckpt::test
