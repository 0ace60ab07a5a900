#pragma once

#include <mutex>

namespace ckpt {

// Debian's HDF5 is built without thread safety: every HDF5 call in the process
// goes through this one lock. Taking it also switches off HDF5's automatic
// error-stack printing (errors are turned into ckpt::Error messages instead).
class H5Lock
{
public:
    H5Lock();
    ~H5Lock();
    H5Lock(const H5Lock&) = delete;
    H5Lock& operator=(const H5Lock&) = delete;

    static std::recursive_mutex& mutex();
    // In a forked copy of the process (H5Probe), which has only the forking
    // thread: the lock as if never taken (the copy's owner thread is gone).
    static void reinitialiseAfterFork();

private:
    std::unique_lock<std::recursive_mutex> m_lock;
};

} // namespace ckpt
