#pragma once

#include "hdf5/DType.h"

#include <cstddef>
#include <cstdint>

namespace ckpt {

// Sums needed to compare two tensors element by element, streamed in blocks.
// Pairs where either value is NaN or Inf are counted and left out of the sums;
// every sum is compensated (Neumaier) across blocks.
class DiffAccumulator
{
public:
    struct Sums
    {
        double diffSq = 0.0; // sum (a-b)^2
        double aSq = 0.0;
        double bSq = 0.0;
        double ab = 0.0;
        double maxAbsDiff = 0.0;
        std::uint64_t count = 0;
        std::uint64_t changed = 0; // pairs that differ (NaN == NaN here)
        std::uint64_t nanA = 0;
        std::uint64_t nanB = 0;
        std::uint64_t infA = 0;
        std::uint64_t infB = 0;
    };

    void add(const double* a, const double* b, std::size_t n);
    // The same for two float32 (or two float64) tensors, straight from the raw
    // buffers: no decoding pass, SIMD-friendly. Mixed or other types use add().
    void add(const float* a, const float* b, std::size_t n);
    // `n` raw pairs of kinds `kindA` and `kindB` as readers deliver them (native
    // byte order): two float32 or two float64 go straight in, others are decoded.
    void addRaw(DTypeKind kindA, const void* a, DTypeKind kindB, const void* b, std::size_t n);
    // Folds in what `other` accumulated, as if its pairs had been added here.
    void merge(const DiffAccumulator& other);
    Sums result() const;

private:
    template <typename T> bool fastBlock(const T* a, const T* b, std::size_t n, double part[4]);
    void addSlow(const double* a, const double* b, std::size_t n, double part[4]);
    void fold(const double part[4]);

    Sums m_sums;
    double m_comp[4] = {0.0, 0.0, 0.0, 0.0};
};

} // namespace ckpt
