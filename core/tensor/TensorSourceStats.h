#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "hdf5/TensorHistogram.h"
#include "hdf5/ValueStats.h"
#include "tensor/TensorSource.h"

#include <vector>

namespace ckpt {

// Statistics of every numeric tensor of a TensorSource, read in blocks of at
// most `blockBytes` (bounded memory whatever the file size). Progress unit: "bytes".
class TensorSourceStats
{
public:
    struct Entry
    {
        TensorInfo info;
        ValueStats stats;
        // Why this tensor has no statistics (the file cut under the reader, an
        // I/O error), naming the file; empty when `stats` holds them.
        std::string error;
    };

    // Every numeric tensor; one that cannot be read gets its error and the
    // others their statistics (a cancel is an error of the whole call).
    static Result<std::vector<Entry>> of(const TensorSource& source,
                                         const Progress& progress = Progress::none(),
                                         std::uint64_t blockBytes = 1ull << 20);
    // One tensor by name.
    static Result<Entry> ofTensor(const TensorSource& source, const std::string& name);
    // One tensor's statistics and histogram over [min, max] of its finite values
    // (two passes, as TensorHistogram does for HDF5; `path` is the tensor's name).
    static Result<TensorHistogram::Tensor> histogram(const TensorSource& source,
                                                     const std::string& name,
                                                     int bins = TensorHistogram::kAutoBins,
                                                     const Progress& progress = Progress::none());
};

} // namespace ckpt
