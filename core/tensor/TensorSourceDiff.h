#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "hdf5/TensorDiff.h"
#include "tensor/TensorSource.h"

namespace ckpt {

// TensorDiff for non-HDF5 model files: tensors matched by name, compared in
// blocks (bounded memory), summed per layer exactly as the HDF5 diff does, so
// the CLI and the window show both the same way. Progress unit: "bytes".
class TensorSourceDiff
{
public:
    static Result<ModelDiff> diff(const TensorSource& a, const TensorSource& b,
                                  const TensorDiff::Options& options,
                                  const Progress& progress = Progress::none());
    // "state_dict/model.layer1.weight" -> "state_dict/model.layer1"; names
    // without a dot fall back to TensorDiff::layerOf.
    static std::string layerOf(const TensorInfo& tensor);
};

} // namespace ckpt
