#pragma once

#include "common/Result.h"

#include <string>

namespace ckpt {

// Reading inside zip model archives (libzip).
class ZipArchive
{
public:
    // Streams `entry` of `zipPath` to the file `dest` (created or truncated) in
    // blocks of 1 MiB, e.g. model.weights.h5 of a Keras 3 `.keras` archive.
    static Status extract(const std::string& zipPath, const std::string& entry,
                          const std::string& dest);
};

} // namespace ckpt
