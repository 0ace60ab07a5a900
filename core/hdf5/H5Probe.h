#pragma once

#include "common/Result.h"

#include <string>

namespace ckpt {

// Debian's libhdf5 crashes (or overruns its heap) on some damaged files: a
// flipped byte in an object header is enough. A process that opened such a
// file in-process would die with it, the window with a user's unsaved state
// among them. So before any HDF5 file is opened here, a copy of this process
// (fork) opens it first and reads everything our readers touch: the object
// tree, every attribute, each dataset's type, shape, layout and filters, and
// the first element of each dataset (which decodes its first chunk). Only a
// file that process walked to the end, with or without HDF5 errors, is opened
// here; HDF5 reports those errors again here, as ever.
//
// Verdicts are remembered per file version (device, inode, size, mtime, ctime),
// so reopening an unchanged file costs a stat. A process that cannot fork (no
// memory, process limit) opens the file unchecked, as before.
class H5Probe
{
public:
    // The time the checking process may take before it is killed and the file
    // refused: walking a model with 100,000 tensors takes a few seconds.
    static constexpr int kTimeoutMs = 60000;

    // Ok when `path` can be opened with HDF5 in this process; else an Error
    // naming the file and saying how reading it failed in the copy.
    static Status check(const std::string& path);

    // True in the checking process (H5File::open does not check again there).
    static bool inChild();

    // Forgets every verdict (tests).
    static void forget();
};

} // namespace ckpt
