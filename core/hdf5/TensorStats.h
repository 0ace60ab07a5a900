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
    };

    // All numeric datasets, in the file's depth-first name order. Non-numeric
    // datasets (strings, compounds) are left out. Progress unit: "bytes".
    static Result<std::vector<Entry>> ofFile(const std::string& file,
                                             const Progress& progress = Progress::none());
    // One dataset by path.
    static Result<Entry> ofDataset(const std::string& file, const std::string& datasetPath);
};

} // namespace ckpt
