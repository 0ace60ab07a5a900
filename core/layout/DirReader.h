#pragma once

#include "common/Result.h"
#include "layout/Layout.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// Thin, allocation-light wrappers over opendir/readdir/openat used by discovery
// and the layouts. The int-returning calls give 0 or an errno value so callers
// can tell "missing" (ENOENT) from "unreadable" (EACCES, EIO) without strings.
class DirReader
{
public:
    // Lists `dir` without "." and "..". d_type is trusted; DT_UNKNOWN (some
    // network and FUSE file systems) is resolved with fstatat, never following
    // symlinks, so a symlinked directory is reported as Symlink.
    static Result<DirListing> list(const std::filesystem::path& dir);
    static int list(const char* dir, std::vector<DirEntry>& out);
    // Calls `visit` with each entry of `dir` (as list() gives them) and its
    // inode number, which readdir returns for free; stops when `visit` returns
    // false. Returns 0 or an errno value.
    using Visitor = std::function<bool(DirEntry& entry, std::uint64_t inode)>;
    static int forEach(const char* dir, const Visitor& visit);
    // Lists the directory `name` relative to the open directory `dirFd`.
    static int listAt(int dirFd, const char* name, std::vector<DirEntry>& out);

    // Does `dir` hold an entry for which `match` is true? Stops at the first one.
    // Returns 0 or the errno of opening `dir`.
    static int containsEntry(const char* dir, const std::function<bool(const DirEntry&)>& match,
                             bool& found);

    // The entry type of `name` relative to `dirFd` after following symlinks;
    // Other when it does not exist or cannot be stat'ed.
    static DirEntry::Type typeAt(int dirFd, const char* name);

    static bool isDigits(std::string_view name);
};

} // namespace ckpt
