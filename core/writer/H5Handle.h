#pragma once

#include <hdf5.h>
#include <utility>

namespace ckpt {

// Owns one HDF5 identifier and closes it with the matching H5*close. Only used
// while the caller holds H5Lock.
class H5Handle
{
public:
    using Closer = herr_t (*)(hid_t);

    H5Handle() = default;
    H5Handle(hid_t id, Closer closer) : m_id(id), m_closer(closer) {}
    H5Handle(const H5Handle&) = delete;
    H5Handle& operator=(const H5Handle&) = delete;
    H5Handle(H5Handle&& other) noexcept
        : m_id(std::exchange(other.m_id, H5I_INVALID_HID)), m_closer(other.m_closer)
    {}
    H5Handle& operator=(H5Handle&& other) noexcept
    {
        if (this != &other) {
            reset();
            m_id = std::exchange(other.m_id, H5I_INVALID_HID);
            m_closer = other.m_closer;
        }
        return *this;
    }
    ~H5Handle() { reset(); }

    hid_t get() const { return m_id; }
    bool valid() const { return m_id >= 0; }
    explicit operator bool() const { return valid(); }

    void reset()
    {
        if (m_id >= 0 && m_closer)
            m_closer(m_id);
        m_id = H5I_INVALID_HID;
    }

private:
    hid_t m_id = H5I_INVALID_HID;
    Closer m_closer = nullptr;
};

} // namespace ckpt
