#pragma once

namespace ckpt::test {

// Factor for wall-clock limits in tests that guard against quadratic or
// runaway work: instrumented Debug builds (scripts/test.sh --asan / --tsan) run
// several times slower, while what the limit catches stays minutes slower.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr int kSlowdown = 6;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr int kSlowdown = 6;
#else
inline constexpr int kSlowdown = 1;
#endif
#else
inline constexpr int kSlowdown = 1;
#endif

} // namespace ckpt::test
