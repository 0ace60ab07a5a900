#pragma once

#include "common/Result.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace ckpt {

// Reads what was appended to a log file since the last call, as `tail -f`
// does: a missing file is empty until it appears, a truncated or replaced
// file is read again from its start.
class LogTail
{
public:
    explicit LogTail(std::filesystem::path path, std::uint64_t offset = 0)
        : m_path(std::move(path)), m_offset(offset)
    {}

    // At most `maxBytes` of new text ("" when nothing new).
    Result<std::string> readMore(std::size_t maxBytes = 1 << 20);

    const std::filesystem::path& path() const { return m_path; }
    std::uint64_t offset() const { return m_offset; }

private:
    std::filesystem::path m_path;
    std::uint64_t m_offset = 0;
    std::uint64_t m_inode = 0;
};

} // namespace ckpt
