#pragma once

#include "common/Result.h"
#include "layout/Layout.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ckpt {

// What the watcher remembers of a directory: its entries with their inode
// numbers, read by one readdir pass (getdents gives names, types and inodes
// without a stat per entry). A CANDLE save renames work/ over epochs/NNN, so a
// changed inode under the same name is a replaced epoch.
class DirSnapshot
{
public:
    struct Entry
    {
        std::string name;
        DirEntry::Type type = DirEntry::Type::Other;
        std::uint64_t inode = 0;
    };

    // The cheap identity of a directory's content for polling: a change of any
    // field means entries were added, removed or renamed.
    struct StatKey
    {
        bool exists = false;
        std::uint64_t inode = 0;
        std::int64_t mtimeNs = 0;
        std::int64_t ctimeNs = 0;
        std::uint64_t size = 0;
        bool operator==(const StatKey&) const = default;
    };

    static Result<std::vector<Entry>> read(const std::filesystem::path& dir);
    static DirListing toListing(const std::filesystem::path& dir,
                                const std::vector<Entry>& entries);
    // lstat of `path`: a link's own times, so relinking last/best is seen.
    static StatKey stat(const std::filesystem::path& path);
    static bool isDirectory(const std::filesystem::path& path);
};

} // namespace ckpt
