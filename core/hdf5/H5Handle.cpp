#include "hdf5/H5Handle.h"

#include "hdf5/H5Lock.h"

#include <hdf5.h>

namespace ckpt {

H5Handle& H5Handle::operator=(H5Handle&& other) noexcept
{
    if (this != &other) {
        reset(other.m_id);
        other.m_id = -1;
    }
    return *this;
}

void H5Handle::reset(std::int64_t id)
{
    if (m_id >= 0) {
        H5Lock lock;
        H5Idec_ref(m_id);
    }
    m_id = id;
}

namespace {

struct ErrorWalk
{
    std::string api;   // the first entry walking downward: the API call
    std::string cause; // the last one: where the error was detected
};

herr_t collectError(unsigned n, const H5E_error2_t* err, void* data)
{
    auto* walk = static_cast<ErrorWalk*>(data);
    if (err && err->desc && *err->desc) {
        if (n == 0)
            walk->api = err->desc;
        walk->cause = err->desc;
    }
    return 0;
}

} // namespace

std::string H5Handle::lastErrorDetail()
{
    H5Lock lock;
    const hid_t stack = H5Eget_current_stack();
    if (stack < 0)
        return {};
    ErrorWalk walk;
    H5Ewalk2(stack, H5E_WALK_DOWNWARD, collectError, &walk);
    H5Eclose_stack(stack);
    return walk.cause.empty() ? walk.api : walk.cause;
}

} // namespace ckpt
