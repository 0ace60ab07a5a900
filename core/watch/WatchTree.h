#pragma once

#include "layout/Layout.h"

#include <filesystem>
#include <string>
#include <utility>
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
    // Is `listing.dir` the root of one run of `layout`, not shared with others?
    static bool isSoleRun(const Layout& layout, const DirListing& listing);

    // Helpers on AbsolutePath::normal strings (the watcher's map keys).
    static std::string parentOf(const std::string& path);
    static std::string nameOf(const std::string& path);
    // `path` is `dir` or below it.
    static bool within(const std::string& path, const std::string& dir);
    // The keys of a sorted map or set strictly below `dir`.
    template <typename Sorted>
    static std::vector<std::string> keysBelow(const Sorted& sorted, const std::string& dir)
    {
        std::vector<std::string> out;
        const std::string prefix = dir + "/";
        for (auto it = sorted.lower_bound(prefix); it != sorted.end(); ++it) {
            const std::string& key = keyOf(*it);
            if (key.compare(0, prefix.size(), prefix) != 0)
                break;
            out.push_back(key);
        }
        return out;
    }

private:
    static const std::string& keyOf(const std::string& key) { return key; }
    template <typename V>
    static const std::string& keyOf(const std::pair<const std::string, V>& entry)
    {
        return entry.first;
    }
};

} // namespace ckpt
