#pragma once

#include <cstdint>
#include <string>

namespace ckpt {

// Owns one HDF5 identifier (file, group, dataset, type, space, property list,
// attribute) and releases it under the H5Lock. Kept free of <hdf5.h> so that
// public headers can hold one: hid_t is a 64-bit integer since HDF5 1.10.
class H5Handle
{
public:
    H5Handle() = default;
    explicit H5Handle(std::int64_t id) : m_id(id) {}
    ~H5Handle() { reset(); }
    H5Handle(H5Handle&& other) noexcept : m_id(other.m_id) { other.m_id = -1; }
    H5Handle& operator=(H5Handle&& other) noexcept;
    H5Handle(const H5Handle&) = delete;
    H5Handle& operator=(const H5Handle&) = delete;

    std::int64_t get() const { return m_id; }
    bool valid() const { return m_id >= 0; }
    explicit operator bool() const { return valid(); }
    void reset(std::int64_t id = -1);

    // The innermost description on the calling thread's HDF5 error stack, e.g.
    // "truncated file: eof = 2048, ...": call right after a failed HDF5 call.
    static std::string lastErrorDetail();

private:
    std::int64_t m_id = -1;
};

} // namespace ckpt
