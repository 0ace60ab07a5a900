#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "hdf5/TensorDiff.h"

#include <string>

namespace ckpt {

// The weights of two model files compared, whatever their format: HDF5 and
// Keras 3 archives through TensorDiff (an archive's weights are extracted into
// `scratchDir` first), torch, MindSpore, Caffe2 and Synalinks files through
// their TensorSource. Both files must be of the same kind.
class WeightsDiff
{
public:
    struct Outcome
    {
        ModelDiff diff; // fileA/fileB name the files as given
        // The HDF5 files actually read (extracted copies for archives), for
        // drilling into one tensor; empty when the files are not HDF5.
        std::string hdf5A;
        std::string hdf5B;
    };

    static Result<Outcome> diff(const std::string& fileA, const std::string& fileB,
                                const std::string& scratchDir, const std::string& tag,
                                const TensorDiff::Options& options,
                                const Progress& progress = Progress::none());
};

} // namespace ckpt
