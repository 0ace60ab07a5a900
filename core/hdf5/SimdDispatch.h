#pragma once

#include <cstdlib>
#include <string_view>

namespace ckpt {

// The tensor accumulators' hot loops are compiled twice: once for the x86-64
// baseline (SSE2) and once with AVX2 and FMA, picked at run time. GCC's vector
// extensions are written four doubles wide, so the baseline build simply splits
// each operation in two. CKPT_SIMD=baseline in the environment forces the
// baseline (the tests run both).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CKPT_SIMD_AVX2 1
#define CKPT_TARGET_AVX2 [[gnu::target("avx2,fma")]]
inline bool cpuHasAvx2Fma()
{
    static const bool has =
        __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
        std::string_view(std::getenv("CKPT_SIMD") ? std::getenv("CKPT_SIMD") : "") != "baseline";
    return has;
}
#else
#define CKPT_SIMD_AVX2 0
#define CKPT_TARGET_AVX2
inline bool cpuHasAvx2Fma()
{
    return false;
}
#endif

} // namespace ckpt
