#pragma once

#include "common/Result.h"
#include "writer/KerasModel.h"

#include <filesystem>

namespace ckpt {

// Reads back the Dense weights (and optimizer state, when present) of a Keras 2
// HDF5 file, full model or weights-only: enough to resume training. Fixed- and
// variable-length string attributes and split (name0, name1, ...) attributes
// are accepted. Every HDF5 call runs under H5Lock; errors name the file and
// the object.
class KerasH5Reader
{
public:
    static Result<KerasModel> read(const std::filesystem::path& path);
};

} // namespace ckpt
