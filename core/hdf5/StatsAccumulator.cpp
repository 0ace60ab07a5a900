#include "hdf5/StatsAccumulator.h"

#include "hdf5/NeumaierSum.h"

#include <algorithm>
#include <cmath>

namespace ckpt {

namespace {

constexpr std::size_t kSub = 4096;

} // namespace

void StatsAccumulator::add(const double* values, std::size_t n)
{
    double finite[kSub];
    while (n > 0) {
        const std::size_t m = std::min(n, kSub);
        std::size_t k = 0;
        for (std::size_t i = 0; i < m; ++i) {
            const double v = values[i];
            if (std::isnan(v)) {
                ++m_stats.nan;
            } else if (std::isinf(v)) {
                ++m_stats.inf;
            } else {
                m_stats.zeros += v == 0.0;
                finite[k++] = v;
            }
        }
        m_stats.count += m;
        addFinite(finite, k);
        values += m;
        n -= m;
    }
}

void StatsAccumulator::addFinite(const double* v, std::size_t n)
{
    if (n == 0)
        return;
    double sum = 0.0;
    double lo = v[0];
    double hi = v[0];
    for (std::size_t i = 0; i < n; ++i) {
        sum += v[i];
        lo = std::min(lo, v[i]);
        hi = std::max(hi, v[i]);
    }
    const double mean = sum / static_cast<double>(n);
    double m2 = 0.0;
    double sq = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double d = v[i] - mean;
        m2 += d * d;
        sq += v[i] * v[i];
    }
    neumaierAdd(m_sumSq, m_sumSqComp, sq);
    if (m_stats.finite == 0) {
        m_min = lo;
        m_max = hi;
        m_mean = mean;
        m_m2 = m2;
        m_stats.finite = n;
        return;
    }
    m_min = std::min(m_min, lo);
    m_max = std::max(m_max, hi);
    const double na = static_cast<double>(m_stats.finite);
    const double nb = static_cast<double>(n);
    const double total = na + nb;
    const double delta = mean - m_mean;
    m_mean += delta * nb / total;
    m_m2 += m2 + delta * delta * na * nb / total;
    m_stats.finite += n;
}

ValueStats StatsAccumulator::result() const
{
    ValueStats s = m_stats;
    if (s.finite > 0) {
        s.min = m_min;
        s.max = m_max;
        s.mean = m_mean;
        s.stddev = std::sqrt(std::max(0.0, m_m2 / static_cast<double>(s.finite)));
        s.l2 = std::sqrt(m_sumSq + m_sumSqComp);
    }
    return s;
}

} // namespace ckpt
