#pragma once

#include <cmath>
#include <span>
#include <vector>

namespace ckpt {

// Exponential moving average with start-up bias correction, as TensorBoard's
// scalar dashboard smooths: ema_n = w * ema_{n-1} + (1 - w) * x_n over the finite
// values only, reported as ema_n / (1 - w^n), where n counts the finite values so
// far. Without the division the first values would be dragged towards zero.
// Non-finite values pass through unchanged and leave the state alone, so a NaN
// or an infinity neither poisons the average nor shifts the correction.
// The state is copyable: a restart branch continues from its parent's state.
class DebiasedEma
{
public:
    // `weight` is clamped to [0, 0.999]; 0 returns the input unchanged.
    explicit DebiasedEma(double weight = 0.0);

    // Inline: it runs once per point of every series built.
    double add(double value)
    {
        if (!std::isfinite(value))
            return value;
        m_ema = m_weight * m_ema + (1.0 - m_weight) * value;
        m_decay *= m_weight;
        ++m_count;
        return m_ema / (1.0 - m_decay);
    }
    // The current smoothed value; NaN before the first finite value.
    double value() const;

    double weight() const { return m_weight; }
    int count() const { return m_count; }

    // The whole series at once. A series whose finite values are all equal is
    // returned as is (TensorBoard does the same: it keeps a flat line exactly flat
    // instead of showing rounding noise).
    static std::vector<double> smooth(std::span<const double> values, double weight);

private:
    double m_weight = 0.0;
    double m_ema = 0.0;
    double m_decay = 1.0; // weight^count, kept incrementally
    int m_count = 0;
};

} // namespace ckpt
