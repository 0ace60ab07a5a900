#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {

// Walks the protobuf wire format of a file through a small pread buffer, so a
// multi-GB message is listed with bounded memory: length-delimited fields are
// skipped (their offset recorded by the caller), never loaded. Every length read
// from the file is checked against the end of the enclosing message; the first
// failure stops the cursor and leaves a message naming the byte offset.
class ProtoCursor
{
public:
    enum WireType : std::uint32_t
    {
        Varint = 0,
        Fixed64 = 1,
        Bytes = 2,
        Fixed32 = 5
    };

    ProtoCursor(int fd, std::uint64_t begin, std::uint64_t end);

    std::uint64_t pos() const { return m_pos; }
    std::uint64_t end() const { return m_end; }
    bool atEnd() const { return m_pos >= m_end; }
    bool failed() const { return !m_error.empty(); }
    const std::string& error() const { return m_error; }

    // The next field's number and wire type; false at a failure.
    bool readKey(std::uint32_t& field, std::uint32_t& wireType);
    bool readVarint(std::uint64_t& value);
    // A length-delimited field's length, checked against the end.
    bool readLength(std::uint64_t& length);
    // The next `length` bytes, refused over `limit` (names, type strings).
    bool readString(std::uint64_t length, std::uint64_t limit, std::string& out);
    bool readFixed(void* out, std::size_t bytes);
    bool skip(std::uint64_t bytes);
    // Skips a field's value of that wire type (groups are refused).
    bool skipValue(std::uint32_t wireType);
    // Restricts the cursor to [pos, pos + length): a nested message. Returns the
    // previous end to give back to leave().
    std::uint64_t enter(std::uint64_t length);
    void leave(std::uint64_t outerEnd) { m_end = outerEnd; }

    bool fail(const std::string& what);

    // Reads exactly `bytes` at `offset` (retrying short reads); false on an
    // error or a file that ends first.
    static bool readAt(int fd, void* out, std::uint64_t bytes, std::uint64_t offset);

private:
    bool fill();

    int m_fd;
    std::uint64_t m_pos;
    std::uint64_t m_end;
    std::vector<unsigned char> m_buf;
    std::uint64_t m_bufStart = 0; // file offset of m_buf[0]
    std::size_t m_bufLen = 0;
    std::string m_error;
};

} // namespace ckpt
