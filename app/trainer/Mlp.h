#pragma once

#include "common/Result.h"
#include "writer/KerasModel.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt::trainer {

// A fully connected network: ReLU hidden layers, softmax output, categorical
// cross-entropy. Parameters are Keras-shaped (kernel [in][out], bias [out]) so
// they round-trip through a Keras 2 HDF5 file unchanged.
class Mlp
{
public:
    struct Eval
    {
        double lossSum = 0; // summed over the samples
        int correct = 0;
    };

    // sizes = {inputs, hidden..., classes}; Glorot-uniform kernels, zero biases.
    Mlp(std::vector<int> sizes, std::uint64_t seed);

    const std::vector<int>& sizes() const { return m_sizes; }
    int layers() const { return static_cast<int>(m_sizes.size()) - 1; }
    // W0, b0, W1, b1, ...
    std::vector<std::vector<float>>& params() { return m_params; }
    const std::vector<std::vector<float>>& params() const { return m_params; }
    const std::vector<std::vector<float>>& grads() const { return m_grads; }
    // "dense/kernel", "dense/bias", "dense_1/kernel", ... (Keras variable names)
    std::vector<std::string> variableNames() const;
    std::vector<std::vector<std::uint64_t>> variableShapes() const;

    // Forward and backward over one batch; grads() then holds the batch-mean
    // gradient.
    Eval trainStep(const float* x, const int* y, int n);
    Eval evaluate(const float* x, const int* y, int n) const;

    static std::string layerName(int index); // "dense", "dense_1", ...
    KerasModel toKeras() const;
    // Takes the weights of a file this program wrote; the shapes must match.
    Status loadKeras(const KerasModel& model, const std::string& origin);

private:
    Eval forward(const float* x, const int* y, int n, std::vector<std::vector<float>>& acts) const;

    std::vector<int> m_sizes;
    std::vector<std::vector<float>> m_params;
    std::vector<std::vector<float>> m_grads;
};

} // namespace ckpt::trainer
