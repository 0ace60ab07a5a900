#pragma once

#include <cstdint>
#include <random>

namespace ckpt::trainer {

// Deterministic on every platform: std::mt19937's output is specified, the
// standard distributions are not, so the conversions are done here.
class Rng
{
public:
    explicit Rng(std::uint64_t seed) : m_gen(static_cast<std::uint32_t>(seed ^ (seed >> 32))) {}

    double uniform(); // [0, 1)
    double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
    double normal();                      // mean 0, sd 1 (Box-Muller)
    std::uint32_t below(std::uint32_t n); // [0, n)

private:
    std::mt19937 m_gen;
};

} // namespace ckpt::trainer
