#include "SpiralData.h"

#include "Rng.h"

#include <cmath>
#include <numbers>
#include <numeric>

namespace ckpt::trainer {

SpiralData::SpiralData(int samplesPerClass, int classes, double noise, std::uint64_t seed,
                       double validationSplit)
    : m_classes(classes)
{
    Rng rng(seed * 7919 + 17);
    std::vector<float> x;
    std::vector<int> y;
    for (int c = 0; c < classes; ++c) {
        for (int i = 0; i < samplesPerClass; ++i) {
            const double r = static_cast<double>(i) / samplesPerClass;
            const double t = 1.0 * r * 2 * std::numbers::pi + 2 * std::numbers::pi * c / classes;
            x.push_back(static_cast<float>(r * std::sin(t) + noise * rng.normal() * 0.3));
            x.push_back(static_cast<float>(r * std::cos(t) + noise * rng.normal() * 0.3));
            y.push_back(c);
        }
    }
    // Shuffle once, then the last fraction is validation (Keras' validation_split
    // takes the tail too).
    std::vector<std::size_t> order(y.size());
    std::iota(order.begin(), order.end(), 0);
    for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[rng.below(static_cast<std::uint32_t>(i))]);
    const auto nVal = static_cast<std::size_t>(std::lround(validationSplit * y.size()));
    const std::size_t nTrain = y.size() - nVal;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::size_t i = order[k];
        auto& dx = k < nTrain ? m_trainX : m_valX;
        auto& dy = k < nTrain ? m_trainY : m_valY;
        dx.push_back(x[2 * i]);
        dx.push_back(x[2 * i + 1]);
        dy.push_back(y[i]);
    }
}

} // namespace ckpt::trainer
