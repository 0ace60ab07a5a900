#include "Rng.h"

#include <cmath>
#include <numbers>

namespace ckpt::trainer {

double Rng::uniform()
{
    const std::uint64_t hi = m_gen() >> 5; // 27 bits
    const std::uint64_t lo = m_gen() >> 6; // 26 bits
    return static_cast<double>((hi << 26) | lo) / 9007199254740992.0;
}

double Rng::normal()
{
    double u1 = uniform();
    while (u1 <= 0.0)
        u1 = uniform();
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

std::uint32_t Rng::below(std::uint32_t n)
{
    return static_cast<std::uint32_t>(uniform() * n) % n;
}

} // namespace ckpt::trainer
