#pragma once

#include <cmath>

namespace ckpt {

// Adds `x` to `sum`, keeping the rounding error in `comp` (Neumaier's
// compensated summation): the result is sum + comp. Inline because the tensor
// accumulators call it once per sub-block in their hot loops.
inline void neumaierAdd(double& sum, double& comp, double x)
{
    const double t = sum + x;
    if (std::abs(sum) >= std::abs(x))
        comp += (sum - t) + x;
    else
        comp += (x - t) + sum;
    sum = t;
}

} // namespace ckpt
