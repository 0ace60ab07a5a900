#include "hdf5/DiffAccumulator.h"

#include "hdf5/ElementDecoder.h"
#include "hdf5/NeumaierSum.h"
#include "hdf5/SimdDispatch.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#if CKPT_SIMD_AVX2
#include <immintrin.h>
#endif

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

// The pairs [i, n) one by one: the tail a vector loop leaves.
template <typename T>
void addTail(const T* a, const T* b, std::size_t i, std::size_t n, double sums[4], double& maxAbs,
             std::uint64_t& changed)
{
    for (; i < n; ++i) {
        const double x = a[i];
        const double y = b[i];
        const double d = x - y;
        sums[0] += d * d;
        sums[1] += x * x;
        sums[2] += y * y;
        sums[3] += x * y;
        maxAbs = std::max(maxAbs, std::abs(d));
        changed += x != y;
    }
}

#if CKPT_SIMD_AVX2
// Two float32 sub-blocks, eight pairs at a time, widened to double for the
// sums (the same sums as Lanes, so results agree with the baseline to rounding).
// False when a sum is not finite: a NaN or Inf is in the sub-block.
CKPT_TARGET_AVX2 bool fastAvx2(const float* a, const float* b, std::size_t n, double part[4],
                               double& maxAbs, std::uint64_t& changed)
{
    __m256d dd0 = _mm256_setzero_pd();
    __m256d dd1 = dd0;
    __m256d aa0 = dd0;
    __m256d aa1 = dd0;
    __m256d bb0 = dd0;
    __m256d bb1 = dd0;
    __m256d ab0 = dd0;
    __m256d ab1 = dd0;
    __m256d mx = dd0;
    __m256i ch = _mm256_setzero_si256();
    const __m256d absMask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffffLL));
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 fa = _mm256_loadu_ps(a + i);
        const __m256 fb = _mm256_loadu_ps(b + i);
        ch = _mm256_sub_epi32(ch, _mm256_castps_si256(_mm256_cmp_ps(fa, fb, _CMP_NEQ_UQ)));
        const __m256d x0 = _mm256_cvtps_pd(_mm256_castps256_ps128(fa));
        const __m256d x1 = _mm256_cvtps_pd(_mm256_extractf128_ps(fa, 1));
        const __m256d y0 = _mm256_cvtps_pd(_mm256_castps256_ps128(fb));
        const __m256d y1 = _mm256_cvtps_pd(_mm256_extractf128_ps(fb, 1));
        const __m256d d0 = _mm256_sub_pd(x0, y0);
        const __m256d d1 = _mm256_sub_pd(x1, y1);
        dd0 = _mm256_fmadd_pd(d0, d0, dd0);
        dd1 = _mm256_fmadd_pd(d1, d1, dd1);
        aa0 = _mm256_fmadd_pd(x0, x0, aa0);
        aa1 = _mm256_fmadd_pd(x1, x1, aa1);
        bb0 = _mm256_fmadd_pd(y0, y0, bb0);
        bb1 = _mm256_fmadd_pd(y1, y1, bb1);
        ab0 = _mm256_fmadd_pd(x0, y0, ab0);
        ab1 = _mm256_fmadd_pd(x1, y1, ab1);
        mx = _mm256_max_pd(mx,
                           _mm256_max_pd(_mm256_and_pd(d0, absMask), _mm256_and_pd(d1, absMask)));
    }
    alignas(32) double lanes[5][4];
    _mm256_store_pd(lanes[0], _mm256_add_pd(dd0, dd1));
    _mm256_store_pd(lanes[1], _mm256_add_pd(aa0, aa1));
    _mm256_store_pd(lanes[2], _mm256_add_pd(bb0, bb1));
    _mm256_store_pd(lanes[3], _mm256_add_pd(ab0, ab1));
    _mm256_store_pd(lanes[4], mx);
    alignas(32) std::int32_t counts[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(counts), ch);
    double sums[4] = {0.0, 0.0, 0.0, 0.0};
    double blockMax = 0.0;
    std::uint64_t blockChanged = 0;
    addTail(a, b, i, n, sums, blockMax, blockChanged);
    for (int j = 0; j < 4; ++j) {
        for (int s = 0; s < 4; ++s)
            sums[s] += lanes[s][j];
        blockMax = std::max(blockMax, lanes[4][j]);
    }
    for (std::int32_t c : counts)
        blockChanged += static_cast<std::uint64_t>(c);
    for (int s = 0; s < 4; ++s) {
        part[s] = sums[s];
        if (!std::isfinite(sums[s]))
            return false;
    }
    maxAbs = std::max(maxAbs, blockMax);
    changed += blockChanged;
    return true;
}
#endif

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
    addTail(a, b, i, n, tail, tailMax, tailChanged);
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
#if CKPT_SIMD_AVX2
        const bool fast = cpuHasAvx2Fma()
                              ? fastAvx2(a, b, m, part, m_sums.maxAbsDiff, m_sums.changed)
                              : fastBlock(a, b, m, part);
#else
        const bool fast = fastBlock(a, b, m, part);
#endif
        if (!fast) {
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

void DiffAccumulator::addRaw(DTypeKind kindA, const void* a, DTypeKind kindB, const void* b,
                             std::size_t n)
{
    if (kindA == DTypeKind::Float32 && kindB == DTypeKind::Float32) {
        add(static_cast<const float*>(a), static_cast<const float*>(b), n);
        return;
    }
    if (kindA == DTypeKind::Float64 && kindB == DTypeKind::Float64) {
        add(static_cast<const double*>(a), static_cast<const double*>(b), n);
        return;
    }
    double bufA[kSub];
    double bufB[kSub];
    const auto sizeA = static_cast<std::size_t>(ElementDecoder::memorySize(kindA));
    const auto sizeB = static_cast<std::size_t>(ElementDecoder::memorySize(kindB));
    const auto* rawA = static_cast<const unsigned char*>(a);
    const auto* rawB = static_cast<const unsigned char*>(b);
    for (std::size_t done = 0; done < n;) {
        const std::size_t m = std::min(kSub, n - done);
        ElementDecoder::toDouble(kindA, rawA + done * sizeA, m, bufA);
        ElementDecoder::toDouble(kindB, rawB + done * sizeB, m, bufB);
        add(bufA, bufB, m);
        done += m;
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

void DiffAccumulator::merge(const DiffAccumulator& other)
{
    const Sums& o = other.m_sums;
    fold(std::array<double, 4>{o.diffSq, o.aSq, o.bSq, o.ab}.data());
    for (int i = 0; i < 4; ++i)
        m_comp[i] += other.m_comp[i];
    m_sums.maxAbsDiff = std::max(m_sums.maxAbsDiff, o.maxAbsDiff);
    m_sums.count += o.count;
    m_sums.changed += o.changed;
    m_sums.nanA += o.nanA;
    m_sums.nanB += o.nanB;
    m_sums.infA += o.infA;
    m_sums.infB += o.infB;
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
