#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "hdf5/H5Tree.h"
#include "hdf5/ValueStats.h"

#include <string>
#include <vector>

namespace ckpt {

// Statistics of every numeric dataset of an HDF5 file, streamed in blocks with
// bounded memory (see BlockPipeline); float16/bfloat16 decoded exactly.
class TensorStats
{
public:
    struct Entry
    {
        std::string path; // absolute dataset path
        H5DatasetInfo info;
        ValueStats stats;
        // Why this tensor has no statistics (a corrupt chunk, a filter
        // missing), naming the file; empty when `stats` holds them.
        std::string error;
    };

    // All numeric datasets, in the file's depth-first name order. Non-numeric
    // datasets (strings, compounds) are left out. A tensor that cannot be read
    // gets its error and the others their statistics; only a file that cannot
    // be opened or listed, or a cancel, is an error of the whole call.
    // Progress unit: "bytes".
    static Result<std::vector<Entry>> ofFile(const std::string& file,
                                             const Progress& progress = Progress::none());
    // One dataset by path.
    static Result<Entry> ofDataset(const std::string& file, const std::string& datasetPath);
};

} // namespace ckpt
