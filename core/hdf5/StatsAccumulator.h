#pragma once

#include "hdf5/DType.h"
#include "hdf5/ValueStats.h"

#include <cstddef>
#include <cstdint>

namespace ckpt {

// Streams values into a ValueStats: blocks of any size, in any number. Each
// sub-block of a few thousand values is summed in vector lanes, shifted by its
// first value so the variance does not cancel; sub-blocks combine with Chan's
// formula and the sum of squares is compensated (Neumaier), so the result does
// not drift with size. A sub-block holding NaN or Inf is redone carefully.
class StatsAccumulator
{
public:
    void add(const double* values, std::size_t n);
    // float32 straight from a raw buffer: no decoding pass.
    void add(const float* values, std::size_t n);
    // `n` raw elements of `kind` as a reader delivers them (native byte order):
    // float32 and float64 go straight in, other kinds through ElementDecoder.
    void addRaw(DTypeKind kind, const void* raw, std::size_t n);
    // Folds in what `other` accumulated, as if its values had been added here.
    void merge(const StatsAccumulator& other);
    ValueStats result() const;

private:
    // The finite values of a sub-block, summarised.
    struct Part
    {
        std::uint64_t n = 0;
        double mean = 0.0;
        double m2 = 0.0; // sum of squared deviations from the mean
        double lo = 0.0;
        double hi = 0.0;
        double sumSq = 0.0;
    };

    template <typename T> void addBlocks(const T* values, std::size_t n);
    template <typename T> void addCareful(const T* values, std::size_t n);
    void combine(const Part& part);

    ValueStats m_stats;
    double m_min = 0.0;
    double m_max = 0.0;
    double m_mean = 0.0;
    double m_m2 = 0.0;
    double m_sumSq = 0.0;
    double m_sumSqComp = 0.0;
};

} // namespace ckpt
