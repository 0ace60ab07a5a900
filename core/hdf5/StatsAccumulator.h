#pragma once

#include "hdf5/ValueStats.h"

#include <cstddef>

namespace ckpt {

// Streams values into a ValueStats: blocks of any size, in any number. Mean and
// variance combine per-block two-pass results with Chan's formula; the sum of
// squares is compensated (Neumaier), so the result does not drift with size.
class StatsAccumulator
{
public:
    void add(const double* values, std::size_t n);
    ValueStats result() const;

private:
    void addFinite(const double* values, std::size_t n);

    ValueStats m_stats;
    double m_min = 0.0;
    double m_max = 0.0;
    double m_mean = 0.0;
    double m_m2 = 0.0;
    double m_sumSq = 0.0;
    double m_sumSqComp = 0.0;
};

} // namespace ckpt
