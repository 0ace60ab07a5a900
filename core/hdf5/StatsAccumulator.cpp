#include "hdf5/StatsAccumulator.h"

#include "hdf5/ElementDecoder.h"
#include "hdf5/NeumaierSum.h"
#include "hdf5/SimdDispatch.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#if CKPT_SIMD_AVX2
#include <immintrin.h>
#endif

namespace ckpt {

namespace {

constexpr std::size_t kSub = 4096;

// The 32-byte vectors only live inside always-inlined helpers of this file, so
// GCC's note that passing them changes the ABI without AVX does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
// GCC 12 flags the _mm512_undefined_*() inside its own AVX-512 min/max, extract
// and reduce intrinsics as (maybe) uninitialized (a known false positive).
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
using V4d = double __attribute__((vector_size(32)));
// Unaligned loads straight from the caller's buffer (memcpy makes GCC 12 spill).
using V4fu = float __attribute__((vector_size(16), aligned(4)));
using V4du = double __attribute__((vector_size(32), aligned(8)));
using V4l = long long __attribute__((vector_size(32)));

// Sums of one sub-block, every value shifted by the block's first one.
struct Sums
{
    double s1 = 0.0; // sum (v - k)
    double s2 = 0.0; // sum (v - k)^2
    double sq = 0.0; // sum v^2
    double lo = 0.0;
    double hi = 0.0;
    std::uint64_t zeros = 0;
};

template <typename T> [[gnu::always_inline]] inline V4d load4(const T* p)
{
#if defined(__clang__)
    // clang keeps a vector type's own alignment whatever aligned() says, so
    // the casts below would be aligned loads of unaligned data (UBSan found
    // it); memcpy is clang's unaligned vector load.
    using V4f = float __attribute__((vector_size(16)));
    if constexpr (std::is_same_v<T, float>) {
        V4f x;
        std::memcpy(&x, p, sizeof x);
        return __builtin_convertvector(x, V4d);
    } else {
        V4d x;
        std::memcpy(&x, p, sizeof x);
        return x;
    }
#else
    if constexpr (std::is_same_v<T, float>)
        return __builtin_convertvector(*reinterpret_cast<const V4fu*>(p), V4d);
    else
        return *reinterpret_cast<const V4du*>(p);
#endif
}

struct Lanes
{
    V4d s1;
    V4d s2;
    V4d sq;
    V4d lo;
    V4d hi;
    V4l zeros;

    [[gnu::always_inline]] void step(const V4d& x, const V4d& k)
    {
        const V4d d = x - k;
        s1 += d;
        s2 += d * d;
        sq += x * x;
        lo = x < lo ? x : lo;
        hi = x > hi ? x : hi;
        zeros -= (x == 0.0);
    }
};

// No branch per value: a NaN or Inf anywhere (or a sum that overflows) leaves
// a sum that is not finite, and the caller redoes the sub-block carefully.
template <typename T>
[[gnu::always_inline]] inline bool sumsOf(const T* v, std::size_t n, Sums& out)
{
    const double k = static_cast<double>(v[0]);
    const V4d kv = {k, k, k, k};
    const V4d zero = {0.0, 0.0, 0.0, 0.0};
    Lanes a{zero, zero, zero, kv, kv, V4l{0, 0, 0, 0}};
    Lanes b = a;
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        a.step(load4(v + i), kv);
        b.step(load4(v + i + 4), kv);
    }
    Sums s;
    s.lo = k;
    s.hi = k;
    for (; i < n; ++i) {
        const double x = static_cast<double>(v[i]);
        const double d = x - k;
        s.s1 += d;
        s.s2 += d * d;
        s.sq += x * x;
        s.lo = x < s.lo ? x : s.lo;
        s.hi = x > s.hi ? x : s.hi;
        s.zeros += x == 0.0;
    }
    for (int j = 0; j < 4; ++j) {
        s.s1 += a.s1[j] + b.s1[j];
        s.s2 += a.s2[j] + b.s2[j];
        s.sq += a.sq[j] + b.sq[j];
        s.lo = std::min({s.lo, a.lo[j], b.lo[j]});
        s.hi = std::max({s.hi, a.hi[j], b.hi[j]});
        s.zeros += static_cast<std::uint64_t>(a.zeros[j] + b.zeros[j]);
    }
    out = s;
    return std::isfinite(s.s1) && std::isfinite(s.s2) && std::isfinite(s.sq);
}

bool sumsBaseline(const float* v, std::size_t n, Sums& out)
{
    return sumsOf(v, n, out);
}
bool sumsBaseline(const double* v, std::size_t n, Sums& out)
{
    return sumsOf(v, n, out);
}
#if CKPT_SIMD_AVX2
CKPT_TARGET_AVX2 bool sumsAvx2(const double* v, std::size_t n, Sums& out)
{
    return sumsOf(v, n, out);
}

// The end of a vector kernel that summed floats [0, i) into `lanes` (shifted by
// v[0]): the scalar tail [i, n) added, shifted to v[0] as well.
bool finishFloat(const float* v, std::size_t i, std::size_t n, const Sums& lanes, Sums& out)
{
    const double k = static_cast<double>(v[0]);
    Sums s;
    const bool tailFinite = i == n || sumsOf(v + i, n - i, s);
    if (i == n) {
        s.lo = k;
        s.hi = k;
    } else {
        const double tail = static_cast<double>(v[i]) - k;
        // sumsOf shifted the tail by its own first value: move it to k.
        const auto m = static_cast<double>(n - i);
        s.s2 += 2.0 * tail * s.s1 + m * tail * tail;
        s.s1 += m * tail;
    }
    s.s1 += lanes.s1;
    s.s2 += lanes.s2;
    s.sq += lanes.sq;
    s.lo = std::min(s.lo, lanes.lo);
    s.hi = std::max(s.hi, lanes.hi);
    s.zeros += lanes.zeros;
    out = s;
    return tailFinite && std::isfinite(s.s1) && std::isfinite(s.s2) && std::isfinite(s.sq);
}

// float32, the common case, written out: min, max and zeros on eight floats at
// a time (exact in float), the sums on two halves widened to double. GCC 12
// widens a vector-extension float4 in two SSE halves, hence the intrinsics.
CKPT_TARGET_AVX2 bool sumsAvx2(const float* v, std::size_t n, Sums& out)
{
    const double k = static_cast<double>(v[0]);
    const __m256d kv = _mm256_set1_pd(k);
    __m256 lo = _mm256_set1_ps(v[0]);
    __m256 hi = lo;
    __m256i zeros = _mm256_setzero_si256();
    __m256d s1a = _mm256_setzero_pd();
    __m256d s1b = s1a;
    __m256d s2a = s1a;
    __m256d s2b = s1a;
    __m256d sqa = s1a;
    __m256d sqb = s1a;
    const __m256 zero = _mm256_setzero_ps();
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 x = _mm256_loadu_ps(v + i);
        lo = _mm256_min_ps(x, lo);
        hi = _mm256_max_ps(x, hi);
        zeros = _mm256_sub_epi32(zeros, _mm256_castps_si256(_mm256_cmp_ps(x, zero, _CMP_EQ_OQ)));
        const __m256d a = _mm256_cvtps_pd(_mm256_castps256_ps128(x));
        const __m256d b = _mm256_cvtps_pd(_mm256_extractf128_ps(x, 1));
        const __m256d da = _mm256_sub_pd(a, kv);
        const __m256d db = _mm256_sub_pd(b, kv);
        s1a = _mm256_add_pd(s1a, da);
        s1b = _mm256_add_pd(s1b, db);
        s2a = _mm256_fmadd_pd(da, da, s2a);
        s2b = _mm256_fmadd_pd(db, db, s2b);
        sqa = _mm256_fmadd_pd(a, a, sqa);
        sqb = _mm256_fmadd_pd(b, b, sqb);
    }
    alignas(32) double d1[4];
    alignas(32) double d2[4];
    alignas(32) double dq[4];
    _mm256_store_pd(d1, _mm256_add_pd(s1a, s1b));
    _mm256_store_pd(d2, _mm256_add_pd(s2a, s2b));
    _mm256_store_pd(dq, _mm256_add_pd(sqa, sqb));
    alignas(32) float fl[8];
    alignas(32) float fh[8];
    alignas(32) std::int32_t z[8];
    _mm256_store_ps(fl, lo);
    _mm256_store_ps(fh, hi);
    _mm256_store_si256(reinterpret_cast<__m256i*>(z), zeros);
    Sums lanes;
    lanes.lo = lanes.hi = k;
    for (int j = 0; j < 4; ++j) {
        lanes.s1 += d1[j];
        lanes.s2 += d2[j];
        lanes.sq += dq[j];
    }
    for (int j = 0; j < 8; ++j) {
        lanes.lo = std::min(lanes.lo, static_cast<double>(fl[j]));
        lanes.hi = std::max(lanes.hi, static_cast<double>(fh[j]));
        lanes.zeros += static_cast<std::uint64_t>(z[j]);
    }
    return finishFloat(v, i, n, lanes, out);
}

// The same sixteen floats at a time; the zeros counted from a compare mask.
CKPT_TARGET_AVX512 bool sumsAvx512(const float* v, std::size_t n, Sums& out)
{
    const double k = static_cast<double>(v[0]);
    const __m512d kv = _mm512_set1_pd(k);
    __m512 lo = _mm512_set1_ps(v[0]);
    __m512 hi = lo;
    std::uint64_t zeros = 0;
    __m512d s1a = _mm512_setzero_pd();
    __m512d s1b = s1a;
    __m512d s2a = s1a;
    __m512d s2b = s1a;
    __m512d sqa = s1a;
    __m512d sqb = s1a;
    const __m512 zero = _mm512_setzero_ps();
    std::size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const __m512 x = _mm512_loadu_ps(v + i);
        lo = _mm512_min_ps(x, lo);
        hi = _mm512_max_ps(x, hi);
        zeros +=
            static_cast<std::uint64_t>(__builtin_popcount(_mm512_cmp_ps_mask(x, zero, _CMP_EQ_OQ)));
        const __m512d a = _mm512_cvtps_pd(_mm512_castps512_ps256(x));
        const __m512d b =
            _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(x), 1)));
        const __m512d da = _mm512_sub_pd(a, kv);
        const __m512d db = _mm512_sub_pd(b, kv);
        s1a = _mm512_add_pd(s1a, da);
        s1b = _mm512_add_pd(s1b, db);
        s2a = _mm512_fmadd_pd(da, da, s2a);
        s2b = _mm512_fmadd_pd(db, db, s2b);
        sqa = _mm512_fmadd_pd(a, a, sqa);
        sqb = _mm512_fmadd_pd(b, b, sqb);
    }
    Sums lanes;
    lanes.s1 = _mm512_reduce_add_pd(_mm512_add_pd(s1a, s1b));
    lanes.s2 = _mm512_reduce_add_pd(_mm512_add_pd(s2a, s2b));
    lanes.sq = _mm512_reduce_add_pd(_mm512_add_pd(sqa, sqb));
    lanes.lo = std::min(k, static_cast<double>(_mm512_reduce_min_ps(lo)));
    lanes.hi = std::max(k, static_cast<double>(_mm512_reduce_max_ps(hi)));
    lanes.zeros = zeros;
    return finishFloat(v, i, n, lanes, out);
}
#endif

template <typename T> bool blockSums(const T* v, std::size_t n, Sums& out)
{
#if CKPT_SIMD_AVX2
    if constexpr (std::is_same_v<T, float>)
        if (simdLevel() == SimdLevel::Avx512)
            return sumsAvx512(v, n, out);
    if (cpuHasAvx2Fma())
        return sumsAvx2(v, n, out);
#endif
    return sumsBaseline(v, n, out);
}

} // namespace

void StatsAccumulator::add(const double* values, std::size_t n)
{
    addBlocks(values, n);
}

void StatsAccumulator::add(const float* values, std::size_t n)
{
    addBlocks(values, n);
}

void StatsAccumulator::addRaw(DTypeKind kind, const void* raw, std::size_t n)
{
    if (kind == DTypeKind::Float32) {
        add(static_cast<const float*>(raw), n);
    } else if (kind == DTypeKind::Float64) {
        add(static_cast<const double*>(raw), n);
    } else {
        double buf[kSub];
        const auto size = static_cast<std::size_t>(ElementDecoder::memorySize(kind));
        const auto* bytes = static_cast<const unsigned char*>(raw);
        for (std::size_t done = 0; done < n;) {
            const std::size_t m = std::min(kSub, n - done);
            ElementDecoder::toDouble(kind, bytes + done * size, m, buf);
            addBlocks(buf, m);
            done += m;
        }
    }
}

template <typename T> void StatsAccumulator::addBlocks(const T* values, std::size_t n)
{
    while (n > 0) {
        const std::size_t m = std::min(n, kSub);
        Sums s;
        if (blockSums(values, m, s)) {
            const double count = static_cast<double>(m);
            const double mean = static_cast<double>(values[0]) + s.s1 / count;
            const double m2 = std::max(0.0, s.s2 - s.s1 * s.s1 / count);
            m_stats.count += m;
            m_stats.zeros += s.zeros;
            combine(Part{m, mean, m2, s.lo, s.hi, s.sq});
        } else {
            addCareful(values, m);
        }
        values += m;
        n -= m;
    }
}

// A sub-block with NaN, Inf or sums too large for the fast path: the finite
// values are set apart (without a branch per value) and summed in two passes.
template <typename T> void StatsAccumulator::addCareful(const T* values, std::size_t n)
{
    double finite[kSub];
    std::size_t k = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const double v = static_cast<double>(values[i]);
        const bool isNan = v != v;
        const bool isInf = std::abs(v) == std::numeric_limits<double>::infinity();
        m_stats.nan += isNan;
        m_stats.inf += isInf;
        finite[k] = v;
        k += !(isNan || isInf);
    }
    m_stats.count += n;
    if (k == 0)
        return;
    Part p;
    p.n = k;
    p.lo = p.hi = finite[0];
    double sum = 0.0;
    for (std::size_t i = 0; i < k; ++i) {
        sum += finite[i];
        p.lo = std::min(p.lo, finite[i]);
        p.hi = std::max(p.hi, finite[i]);
        m_stats.zeros += finite[i] == 0.0;
    }
    p.mean = sum / static_cast<double>(k);
    for (std::size_t i = 0; i < k; ++i) {
        const double d = finite[i] - p.mean;
        p.m2 += d * d;
        p.sumSq += finite[i] * finite[i];
    }
    combine(p);
}

void StatsAccumulator::combine(const Part& p)
{
    if (p.n == 0)
        return;
    neumaierAdd(m_sumSq, m_sumSqComp, p.sumSq);
    if (m_stats.finite == 0) {
        m_min = p.lo;
        m_max = p.hi;
        m_mean = p.mean;
        m_m2 = p.m2;
        m_stats.finite = p.n;
        return;
    }
    m_min = std::min(m_min, p.lo);
    m_max = std::max(m_max, p.hi);
    const double na = static_cast<double>(m_stats.finite);
    const double nb = static_cast<double>(p.n);
    const double total = na + nb;
    const double delta = p.mean - m_mean;
    m_mean += delta * nb / total;
    m_m2 += p.m2 + delta * delta * na * nb / total;
    m_stats.finite += p.n;
}

void StatsAccumulator::merge(const StatsAccumulator& other)
{
    m_stats.count += other.m_stats.count;
    m_stats.nan += other.m_stats.nan;
    m_stats.inf += other.m_stats.inf;
    m_stats.zeros += other.m_stats.zeros;
    m_sumSqComp += other.m_sumSqComp;
    combine(Part{other.m_stats.finite, other.m_mean, other.m_m2, other.m_min, other.m_max,
                 other.m_sumSq});
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
