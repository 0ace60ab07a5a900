#include "hdf5/DiffAccumulator.h"

#include <algorithm>
#include <cmath>

namespace ckpt {

namespace {

constexpr std::size_t kSub = 2048;
constexpr std::size_t kLanes = 4;

void neumaier(double& sum, double& comp, double x)
{
    const double t = sum + x;
    if (std::abs(sum) >= std::abs(x))
        comp += (sum - t) + x;
    else
        comp += (x - t) + sum;
    sum = t;
}

} // namespace

void DiffAccumulator::add(const double* a, const double* b, std::size_t n)
{
    while (n > 0) {
        const std::size_t m = std::min(n, kSub);
        // Fast path: no finiteness test per element. Any NaN/Inf in the inputs makes
        // a sum non-finite, and then the sub-block is redone carefully.
        double dd[kLanes] = {}, aa[kLanes] = {}, bb[kLanes] = {}, ab[kLanes] = {}, mx[kLanes] = {};
        std::uint64_t ch[kLanes] = {};
        std::size_t i = 0;
        for (; i + kLanes <= m; i += kLanes) {
            for (std::size_t l = 0; l < kLanes; ++l) {
                const double x = a[i + l];
                const double y = b[i + l];
                const double d = x - y;
                dd[l] += d * d;
                aa[l] += x * x;
                bb[l] += y * y;
                ab[l] += x * y;
                mx[l] = std::max(mx[l], std::abs(d));
                ch[l] += x != y;
            }
        }
        for (; i < m; ++i) {
            const double d = a[i] - b[i];
            dd[0] += d * d;
            aa[0] += a[i] * a[i];
            bb[0] += b[i] * b[i];
            ab[0] += a[i] * b[i];
            mx[0] = std::max(mx[0], std::abs(d));
            ch[0] += a[i] != b[i];
        }
        double part[4] = {(dd[0] + dd[1]) + (dd[2] + dd[3]), (aa[0] + aa[1]) + (aa[2] + aa[3]),
                          (bb[0] + bb[1]) + (bb[2] + bb[3]), (ab[0] + ab[1]) + (ab[2] + ab[3])};
        if (std::isfinite(part[0]) && std::isfinite(part[1]) && std::isfinite(part[2]) &&
            std::isfinite(part[3])) {
            m_sums.maxAbsDiff = std::max({m_sums.maxAbsDiff, mx[0], mx[1], mx[2], mx[3]});
            m_sums.changed += ch[0] + ch[1] + ch[2] + ch[3];
        } else {
            addSlow(a, b, m, part);
        }
        m_sums.count += m;
        fold(part);
        a += m;
        b += m;
        n -= m;
    }
}

void DiffAccumulator::addSlow(const double* a, const double* b, std::size_t n, double part[4])
{
    part[0] = part[1] = part[2] = part[3] = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        const double x = a[i];
        const double y = b[i];
        const bool fx = std::isfinite(x);
        const bool fy = std::isfinite(y);
        m_sums.nanA += std::isnan(x);
        m_sums.nanB += std::isnan(y);
        m_sums.infA += std::isinf(x);
        m_sums.infB += std::isinf(y);
        if (fx && fy) {
            const double d = x - y;
            part[0] += d * d;
            part[1] += x * x;
            part[2] += y * y;
            part[3] += x * y;
            m_sums.maxAbsDiff = std::max(m_sums.maxAbsDiff, std::abs(d));
            m_sums.changed += x != y;
        } else {
            const bool same = (std::isnan(x) && std::isnan(y)) || x == y;
            m_sums.changed += !same;
        }
    }
}

void DiffAccumulator::fold(const double part[4])
{
    neumaier(m_sums.diffSq, m_comp[0], part[0]);
    neumaier(m_sums.aSq, m_comp[1], part[1]);
    neumaier(m_sums.bSq, m_comp[2], part[2]);
    neumaier(m_sums.ab, m_comp[3], part[3]);
}

DiffAccumulator::Sums DiffAccumulator::result() const
{
    Sums s = m_sums;
    s.diffSq += m_comp[0];
    s.aSq += m_comp[1];
    s.bSq += m_comp[2];
    s.ab += m_comp[3];
    return s;
}

} // namespace ckpt
