#pragma once

#include "common/Result.h"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace ckpt {

class Layout;

// The epoch directories of a run as they are on disk right now (not as a
// possibly stale Run says): actions re-read them just before changing anything.
// Which entries are epochs is the layout's call (Layout::epochNumberOf, in the
// folder Layout::watchHints().epochsDir).
class EpochDirs
{
public:
    // Epoch number -> directory names in the epochs folder ("012"; two names
    // when "12" and "012" both exist). Only directories (or links to
    // directories) count. Error when the folder cannot be read.
    static Result<std::map<int, std::vector<std::string>>> list(const std::filesystem::path& root,
                                                                const Layout& layout);

    // The one directory of `epoch`, as a path relative to root ("epochs/012").
    // Errors name the run, the epoch and what is there instead.
    static Result<std::string> find(const std::filesystem::path& root, const Layout& layout,
                                    int epoch);

    // The folder holding the epoch directories.
    static std::filesystem::path folder(const std::filesystem::path& root, const Layout& layout);
};

} // namespace ckpt
