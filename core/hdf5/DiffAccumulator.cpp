#include "hdf5/DiffAccumulator.h"

#include "hdf5/NeumaierSum.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ckpt {

namespace {

constexpr std::size_t kSub = 2048;

// Vector extensions (GCC and Clang): two doubles per SSE2 register, two
// independent accumulators per sum, so the loop vectorises at -O2 on any x86-64.
using V2d = double __attribute__((vector_size(16)));
using V2f = float __attribute__((vector_size(8)));
using V2l = long long __attribute__((vector_size(16)));

inline V2d load2(const float* p)
{
    V2f f;
    std::memcpy(&f, p, sizeof f);
    return __builtin_convertvector(f, V2d);
}

inline V2d load2(const double* p)
{
    V2d d;
    std::memcpy(&d, p, sizeof d);
    return d;
}

struct Lanes
{
    V2d dd = {0, 0}, aa = {0, 0}, bb = {0, 0}, ab = {0, 0}, mx = {0, 0};
    V2l ch = {0, 0};

    void step(V2d x, V2d y)
    {
        const V2l absMask = {0x7fffffffffffffffLL, 0x7fffffffffffffffLL};
        const V2d d = x - y;
        dd += d * d;
        aa += x * x;
        bb += y * y;
        ab += x * y;
        const V2d ad = reinterpret_cast<V2d>(reinterpret_cast<V2l>(d) & absMask);
        mx = ad > mx ? ad : mx;
        ch -= (x != y);
    }
};

} // namespace

template <typename T>
bool DiffAccumulator::fastBlock(const T* a, const T* b, std::size_t n, double part[4])
{
    Lanes l0;
    Lanes l1;
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        l0.step(load2(a + i), load2(b + i));
        l1.step(load2(a + i + 2), load2(b + i + 2));
    }
    double tail[4] = {0, 0, 0, 0};
    double tailMax = 0.0;
    std::uint64_t tailChanged = 0;
    for (; i < n; ++i) {
        const double x = a[i];
        const double y = b[i];
        const double d = x - y;
        tail[0] += d * d;
        tail[1] += x * x;
        tail[2] += y * y;
        tail[3] += x * y;
        tailMax = std::max(tailMax, std::abs(d));
        tailChanged += x != y;
    }
    part[0] = (l0.dd[0] + l0.dd[1]) + (l1.dd[0] + l1.dd[1]) + tail[0];
    part[1] = (l0.aa[0] + l0.aa[1]) + (l1.aa[0] + l1.aa[1]) + tail[1];
    part[2] = (l0.bb[0] + l0.bb[1]) + (l1.bb[0] + l1.bb[1]) + tail[2];
    part[3] = (l0.ab[0] + l0.ab[1]) + (l1.ab[0] + l1.ab[1]) + tail[3];
    if (!(std::isfinite(part[0]) && std::isfinite(part[1]) && std::isfinite(part[2]) &&
          std::isfinite(part[3])))
        return false;
    m_sums.maxAbsDiff =
        std::max({m_sums.maxAbsDiff, l0.mx[0], l0.mx[1], l1.mx[0], l1.mx[1], tailMax});
    m_sums.changed +=
        static_cast<std::uint64_t>(l0.ch[0] + l0.ch[1] + l1.ch[0] + l1.ch[1]) + tailChanged;
    return true;
}

void DiffAccumulator::add(const float* a, const float* b, std::size_t n)
{
    double da[kSub];
    double db[kSub];
    while (n > 0) {
        const std::size_t m = std::min(n, kSub);
        double part[4];
        if (!fastBlock(a, b, m, part)) {
            // A NaN or Inf in the sub-block: redo it carefully.
            for (std::size_t i = 0; i < m; ++i) {
                da[i] = a[i];
                db[i] = b[i];
            }
            addSlow(da, db, m, part);
        }
        m_sums.count += m;
        fold(part);
        a += m;
        b += m;
        n -= m;
    }
}

void DiffAccumulator::add(const double* a, const double* b, std::size_t n)
{
    while (n > 0) {
        const std::size_t m = std::min(n, kSub);
        double part[4];
        if (!fastBlock(a, b, m, part))
            addSlow(a, b, m, part);
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
    neumaierAdd(m_sums.diffSq, m_comp[0], part[0]);
    neumaierAdd(m_sums.aSq, m_comp[1], part[1]);
    neumaierAdd(m_sums.bSq, m_comp[2], part[2]);
    neumaierAdd(m_sums.ab, m_comp[3], part[3]);
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
