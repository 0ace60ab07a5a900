#pragma once

#include "common/Result.h"

#include <functional>
#include <string>

namespace ckpt {

// Debian's libhdf5 crashes (or overruns its heap) on some damaged files: a
// flipped byte in an object header is enough. A process that opened such a
// file in-process would die with it, the window with a user's unsaved state
// among them. So before any HDF5 file is opened here, a copy of this process
// (fork) opens it first and reads what the opener will read (Depth): each
// dataset's listing, type, shape, layout and filters, the first element of a
// chunked one (which decodes its first chunk), and for Everything the object
// tree with every attribute. Only a file that process walked to the end, with
// or without HDF5 errors, is opened here; HDF5 reports those errors again
// here, as ever. The copy is forked from this very process, so a crash that
// depends on what the heap holds is met there too, as a rule.
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

    // What the opener will read, and so what the copy reads first: Tensors is
    // what statistics, histograms and diffs read (each dataset's listing, type,
    // shape, layout, its dtype attribute and first element); Everything adds the
    // whole object tree with every attribute (the inspector, the Keras reader).
    enum class Depth
    {
        Tensors,
        Everything
    };

    // Ok when `path` can be opened with HDF5 in this process and read to
    // `depth`; else an Error naming the file and saying how reading it failed
    // in the copy. A verdict for Everything stands for Tensors too.
    static Status check(const std::string& path, Depth depth = Depth::Everything);

    // Runs `work` in a forked copy of this process, in which HDF5 files are
    // opened without a check of their own (the copy is the check): `work`'s
    // exit status, or, when the copy died of a signal, an Error naming the HDF5
    // files it had opened. For a command-line program whose whole command reads
    // models: one fork instead of reading every file twice. The copy shares
    // stdout and stderr and is killed if this process dies first.
    static Result<int> isolate(const std::function<int()>& work);

    // True in the checking process or in isolate()'s copy (H5File::open does
    // not check again there).
    static bool inChild();

    // Forgets every verdict (tests).
    static void forget();
};

} // namespace ckpt
