#include "io/ProtoCursor.h"

#include <cerrno>
#include <cstring>
#include <unistd.h>

namespace ckpt {

namespace {
constexpr std::size_t kBufferBytes = 64 * 1024;
}

ProtoCursor::ProtoCursor(int fd, std::uint64_t begin, std::uint64_t end)
    : m_fd(fd), m_pos(begin), m_end(end), m_buf(kBufferBytes)
{}

bool ProtoCursor::fail(const std::string& what)
{
    if (m_error.empty())
        m_error = "at byte " + std::to_string(m_pos) + ": " + what;
    return false;
}

bool ProtoCursor::fill()
{
    if (m_pos >= m_bufStart && m_pos < m_bufStart + m_bufLen)
        return true;
    ssize_t got = 0;
    do {
        got = ::pread(m_fd, m_buf.data(), m_buf.size(), static_cast<off_t>(m_pos));
    } while (got < 0 && errno == EINTR);
    if (got < 0)
        return fail(std::strerror(errno));
    if (got == 0)
        return fail("the file ends here (truncated?)");
    m_bufStart = m_pos;
    m_bufLen = static_cast<std::size_t>(got);
    return true;
}

bool ProtoCursor::readVarint(std::uint64_t& value)
{
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (m_pos >= m_end)
            return fail("a number runs past the end of its message");
        if (!fill())
            return false;
        const unsigned char b = m_buf[m_pos - m_bufStart];
        ++m_pos;
        value |= std::uint64_t(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return fail("a number longer than 10 bytes: not protobuf");
}

bool ProtoCursor::readKey(std::uint32_t& field, std::uint32_t& wireType)
{
    std::uint64_t key = 0;
    if (!readVarint(key))
        return false;
    field = static_cast<std::uint32_t>(key >> 3);
    wireType = static_cast<std::uint32_t>(key & 7);
    if (field == 0 || key >> 32)
        return fail("field number " + std::to_string(key >> 3) + " is not valid protobuf");
    return true;
}

bool ProtoCursor::readLength(std::uint64_t& length)
{
    if (!readVarint(length))
        return false;
    if (length > m_end - m_pos)
        return fail("a field declares " + std::to_string(length) + " bytes but only " +
                    std::to_string(m_end - m_pos) + " remain in its message (truncated?)");
    return true;
}

bool ProtoCursor::readFixed(void* out, std::size_t bytes)
{
    if (bytes > m_end - m_pos)
        return fail("a fixed-size value runs past the end of its message");
    auto* dst = static_cast<unsigned char*>(out);
    while (bytes > 0) {
        if (!fill())
            return false;
        const std::size_t avail = m_bufLen - static_cast<std::size_t>(m_pos - m_bufStart);
        const std::size_t n = avail < bytes ? avail : bytes;
        std::memcpy(dst, m_buf.data() + (m_pos - m_bufStart), n);
        dst += n;
        m_pos += n;
        bytes -= n;
    }
    return true;
}

bool ProtoCursor::readString(std::uint64_t length, std::uint64_t limit, std::string& out)
{
    if (length > limit)
        return fail("a text field of " + std::to_string(length) + " bytes, over the " +
                    std::to_string(limit) + " expected");
    out.resize(static_cast<std::size_t>(length));
    return readFixed(out.data(), out.size());
}

bool ProtoCursor::skip(std::uint64_t bytes)
{
    if (bytes > m_end - m_pos)
        return fail("a field runs past the end of its message (truncated?)");
    m_pos += bytes;
    return true;
}

bool ProtoCursor::skipValue(std::uint32_t wireType)
{
    std::uint64_t v = 0;
    switch (wireType) {
    case Varint:
        return readVarint(v);
    case Fixed64:
        return skip(8);
    case Bytes:
        return readLength(v) && skip(v);
    case Fixed32:
        return skip(4);
    default:
        return fail("wire type " + std::to_string(wireType) + " is not used by this format");
    }
}

bool ProtoCursor::readAt(int fd, void* out, std::uint64_t bytes, std::uint64_t offset)
{
    auto* dst = static_cast<char*>(out);
    while (bytes > 0) {
        const ssize_t got = ::pread(fd, dst, bytes, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        dst += got;
        offset += static_cast<std::uint64_t>(got);
        bytes -= static_cast<std::uint64_t>(got);
    }
    return true;
}

std::uint64_t ProtoCursor::enter(std::uint64_t length)
{
    const std::uint64_t outer = m_end;
    m_end = m_pos + length;
    return outer;
}

} // namespace ckpt
