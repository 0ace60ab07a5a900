#pragma once

#include "layout/Layout.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ckpt {

// The watcher's walk of a dropped folder: like discovery (same layouts, no
// symlinked directories followed, owned subdirectories skipped) but it also
// returns every directory walked that is not a run root, because a new run can
// only appear by a change in one of them.
class WatchTree
{
public:
    struct FoundRun
    {
        std::string root;
        const Layout* layout = nullptr;
    };
    struct Outcome
    {
        std::vector<FoundRun> runs;
        std::vector<std::string> dirs; // walked directories that are not run roots
    };

    static Outcome walk(const std::filesystem::path& dir, int maxDepth = 64);
    // The layout whose run root `listing.dir` is, or nullptr.
    static const Layout* layoutOf(const DirListing& listing);
    // Absolute, normalised, no trailing slash: the form every map key takes.
    static std::string normalise(const std::filesystem::path& path);
};

} // namespace ckpt
