#include "hdf5/H5Lock.h"

#include <hdf5.h>
#include <new>

namespace ckpt {

std::recursive_mutex& H5Lock::mutex()
{
    static std::recursive_mutex m;
    return m;
}

void H5Lock::reinitialiseAfterFork()
{
    new (&mutex()) std::recursive_mutex();
}

H5Lock::H5Lock() : m_lock(mutex())
{
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
