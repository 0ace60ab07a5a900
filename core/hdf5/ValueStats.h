#pragma once

#include <cstdint>
#include <limits>

namespace ckpt {

// Summary of the values of one tensor. NaN and +/-Inf are counted, and left out
// of everything else: min, max, mean, stddev (population, ddof 0) and the L2 norm
// are over the finite values. With no finite value they are NaN.
struct ValueStats
{
    std::uint64_t count = 0; // all elements
    std::uint64_t finite = 0;
    std::uint64_t nan = 0;
    std::uint64_t inf = 0;
    std::uint64_t zeros = 0;
    double min = std::numeric_limits<double>::quiet_NaN();
    double max = std::numeric_limits<double>::quiet_NaN();
    double mean = std::numeric_limits<double>::quiet_NaN();
    double stddev = std::numeric_limits<double>::quiet_NaN();
    double l2 = std::numeric_limits<double>::quiet_NaN();
};

} // namespace ckpt
