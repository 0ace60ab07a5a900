#pragma once

#include <cstdlib>
#include <string_view>

namespace ckpt {

// The tensor accumulators' hot loops are compiled for the x86-64 baseline
// (SSE2) and again with AVX2 + FMA (and, for float32 statistics, AVX-512F),
// picked at run time. GCC's vector extensions are written four doubles wide, so
// the baseline build simply splits each operation in two. CKPT_SIMD=baseline
// or CKPT_SIMD=avx2 in the environment caps the level (the tests run each).
enum class SimdLevel
{
    Baseline,
    Avx2,
    Avx512
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CKPT_SIMD_AVX2 1
#define CKPT_TARGET_AVX2 [[gnu::target("avx2,fma")]]
#define CKPT_TARGET_AVX512 [[gnu::target("avx512f,avx2,fma")]]
inline SimdLevel simdLevel()
{
    static const SimdLevel level = [] {
        const char* env = std::getenv("CKPT_SIMD");
        const std::string_view cap = env ? env : "";
        if (cap == "baseline" || !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma"))
            return SimdLevel::Baseline;
        if (cap == "avx2" || !__builtin_cpu_supports("avx512f"))
            return SimdLevel::Avx2;
        return SimdLevel::Avx512;
    }();
    return level;
}
#else
#define CKPT_SIMD_AVX2 0
#define CKPT_TARGET_AVX2
#define CKPT_TARGET_AVX512
inline SimdLevel simdLevel()
{
    return SimdLevel::Baseline;
}
#endif

inline bool cpuHasAvx2Fma()
{
    return simdLevel() != SimdLevel::Baseline;
}

} // namespace ckpt
