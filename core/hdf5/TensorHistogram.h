#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "hdf5/Histogram.h"
#include "hdf5/ValueStats.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace ckpt {

// Histograms of dataset values, streamed in blocks (BlockPipeline) in two
// passes: the range of the finite values, then the counts. Memory stays bounded
// whatever the tensor's size.
class TensorHistogram
{
public:
    static constexpr int kDefaultBins = 64;
    // Bins = 0 picks sqrt(elements), between 8 and 128: a 12-value bias gets
    // readable bars, a large kernel a fine shape.
    static constexpr int kAutoBins = 0;
    static int autoBins(std::uint64_t elements);

    struct Tensor
    {
        std::string file;
        std::string path; // absolute dataset path
        ValueStats stats;
        Histogram histogram;
    };

    // One dataset, binned over [min, max] of its finite values. Progress unit: "bytes".
    static Result<Tensor> ofDataset(const std::string& file, const std::string& datasetPath,
                                    int bins = kDefaultBins,
                                    const Progress& progress = Progress::none());
    // Two datasets on the same bins (the union of both ranges), so they overlay.
    static Result<std::pair<Tensor, Tensor>>
    ofPair(const std::string& fileA, const std::string& pathA, const std::string& fileB,
           const std::string& pathB, int bins = kDefaultBins,
           const Progress& progress = Progress::none());

    // An empty histogram of `bins` bins over [lo, hi]. A zero-width range (a
    // constant tensor) is widened to [lo - 0.5, lo + 0.5] so the value sits in the
    // middle; no finite value (NaN range) leaves the counts empty.
    static Histogram empty(double lo, double hi, int bins);
    // Adds values to `h` (its range already set).
    static void add(Histogram& h, const double* values, std::size_t n);
};

} // namespace ckpt
