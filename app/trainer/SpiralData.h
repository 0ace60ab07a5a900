#pragma once

#include <cstdint>
#include <vector>

namespace ckpt::trainer {

// Interleaved noisy spirals in 2-D, one arm per class: small, deterministic
// for a seed, and hard enough that a 2-hidden-layer MLP learns it over tens of
// epochs (the loss curve is worth watching).
class SpiralData
{
public:
    SpiralData(int samplesPerClass, int classes, double noise, std::uint64_t seed,
               double validationSplit);

    int classes() const { return m_classes; }
    // Row-major [n][2] inputs and class labels.
    const std::vector<float>& trainX() const { return m_trainX; }
    const std::vector<int>& trainY() const { return m_trainY; }
    const std::vector<float>& valX() const { return m_valX; }
    const std::vector<int>& valY() const { return m_valY; }

private:
    int m_classes;
    std::vector<float> m_trainX, m_valX;
    std::vector<int> m_trainY, m_valY;
};

} // namespace ckpt::trainer
