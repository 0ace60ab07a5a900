#pragma once

#include "common/Result.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ckpt {

// The epoch directories of a CANDLE run as they are on disk right now (not as a
// possibly stale Run says): actions re-read them just before changing anything.
class EpochDirs
{
public:
    // Epoch number -> directory names under <root>/epochs ("012"; two names when
    // "12" and "012" both exist). Only directories (or links to directories)
    // whose name is all digits count. Error when <root>/epochs cannot be read.
    static Result<std::map<int, std::vector<std::string>>> list(const std::filesystem::path& root);

    // The one directory of `epoch`, as a path relative to root ("epochs/012").
    // Errors name the run, the epoch and what is there instead.
    static Result<std::string> find(const std::filesystem::path& root, int epoch);
};

} // namespace ckpt
