#include "plot/DebiasedEma.h"

#include <algorithm>
#include <cmath>

namespace ckpt {

DebiasedEma::DebiasedEma(double weight)
    : m_weight(std::isfinite(weight) ? std::clamp(weight, 0.0, 0.999) : 0.0)
{}

double DebiasedEma::value() const
{
    return m_count == 0 ? std::nan("") : m_ema / (1.0 - m_decay);
}

std::vector<double> DebiasedEma::smooth(std::span<const double> values, double weight)
{
    std::vector<double> out(values.begin(), values.end());
    const auto firstFinite =
        std::find_if(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
    const bool constant = std::all_of(values.begin(), values.end(), [&](double v) {
        return !std::isfinite(v) || v == *firstFinite;
    });
    if (constant)
        return out;
    DebiasedEma ema(weight);
    for (double& v : out)
        v = ema.add(v);
    return out;
}

} // namespace ckpt
