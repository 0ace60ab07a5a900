#include "hdf5/H5Lock.h"

#include <hdf5.h>

namespace ckpt {

std::recursive_mutex& H5Lock::mutex()
{
    static std::recursive_mutex m;
    return m;
}

H5Lock::H5Lock() : m_lock(mutex())
{
    static const bool silenced = [] {
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
        return true;
    }();
    (void)silenced;
}

H5Lock::~H5Lock() = default;

} // namespace ckpt
