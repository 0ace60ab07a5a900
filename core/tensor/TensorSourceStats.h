#pragma once

#include "common/Progress.h"
#include "common/Result.h"
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
    };

    static Result<std::vector<Entry>> of(const TensorSource& source,
                                         const Progress& progress = Progress::none(),
                                         std::uint64_t blockBytes = 1ull << 20);
    // One tensor by name.
    static Result<Entry> ofTensor(const TensorSource& source, const std::string& name);
};

} // namespace ckpt
