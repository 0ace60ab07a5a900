#pragma once

#include "common/Result.h"

#include <cstdint>
#include <string>

namespace ckpt {

// A file or folder moved into the freedesktop.org trash, and how to put it back.
struct TrashedItem
{
    std::string original; // the absolute path it had
    std::string trashed;  // where it is now: $trash/files/NAME
    std::string info;     // its $trash/info/NAME.trashinfo
};

// The desktop trash, as QFile::moveToTrash uses it (the trash of the file's own
// file system: $topdir/.Trash/$uid, $topdir/.Trash-$uid, or the home trash when
// the file lives on the home file system). Moving is one rename, never a copy:
// where that trash cannot be had by a rename (NFS or Lustre with no .Trash-$uid
// at its top and no right to make one), locationFor says so before anything moves.
class Trash
{
public:
    // The trash folder that takes `path` by a rename on its file system; an Error
    // saying why there is none. Creates nothing.
    static Result<std::string> locationFor(const std::string& path);
    // Moves `path` into its trash (QFile::moveToTrash), after locationFor's check.
    static Result<TrashedItem> move(const std::string& path);
    // Renames the item back to its original path (never over an existing entry)
    // and removes its .trashinfo. Qt has no call for this.
    static Status restore(const TrashedItem& item);
};

} // namespace ckpt
