#include "hdf5/H5Lock.h"

#include <hdf5.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ckpt {

std::recursive_mutex& H5Lock::mutex()
{
    static std::recursive_mutex m;
    return m;
}

H5Lock::H5Lock() : m_lock(mutex())
{
#if defined(__GLIBC__)
    // libhdf5 1.10 frees thousands of small blocks as it closes objects and
    // files. With glibc's fastbins, each free that merges into the heap top
    // then consolidates every fastbin (malloc_consolidate and unlink_chunk were
    // a fifth of a diff of 4,000 small tensors, 12% less CPU without them).
    // Small blocks still come from glibc's per-thread cache. Once per process.
    static const bool noFastbins = mallopt(M_MXFAST, 0) == 1;
    (void)noFastbins;
#endif
    // Debian's libhdf5 is built thread-safe, which makes the error stack (and its
    // automatic printing) per thread: silence it once in every thread that calls in.
    thread_local const bool silenced = [] {
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
        return true;
    }();
    (void)silenced;
}

H5Lock::~H5Lock() = default;

} // namespace ckpt
