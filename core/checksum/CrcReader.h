#pragma once

#include "common/Result.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>

namespace ckpt {

// Computes the CRC-32 of a byte range of an open file, block by block. One
// reader per thread: it owns its block buffer. Read copies each block into a
// buffer (pread); Mmap computes on the page cache directly, without the copy,
// and turns the SIGBUS of a file truncated meanwhile into a "shrank" error (it
// installs a SIGBUS handler once, which passes other faults on).
class CrcReader
{
public:
    enum class Strategy
    {
        Read,
        Mmap
    };
    struct Options
    {
        Strategy strategy = Strategy::Read;
        // 128 KiB stays in L2 between the copy and the CRC (cat uses the same size);
        // 1 MiB and up measured slower in tests/bench/verify.
        std::size_t blockBytes = std::size_t{128} << 10;
    };
    struct Outcome
    {
        std::uint32_t crc = 0;
        std::uint64_t bytes = 0;
    };
    // Called after every block with the bytes of that block; returning false
    // stops the reader, which then fails with "cancelled".
    using BlockCallback = std::function<bool(std::uint64_t)>;

    static constexpr std::uint64_t kToEnd = std::numeric_limits<std::uint64_t>::max();

    CrcReader();
    explicit CrcReader(Options options);

    // CRC of [offset, offset + length) of `fd`; kToEnd reads to end of file. A
    // bounded range that ends early means the file shrank under us: an Error.
    // `path` only names the file in error messages.
    Result<Outcome> crcRange(int fd, const std::filesystem::path& path, std::uint64_t offset,
                             std::uint64_t length, const BlockCallback& onBlock = {});

    // Opens `path` and computes the CRC of the whole file.
    Result<Outcome> crcFile(const std::filesystem::path& path, const BlockCallback& onBlock = {});

    const Options& options() const { return m_options; }

private:
    Result<Outcome> readRange(int fd, const std::filesystem::path& path, std::uint64_t offset,
                              std::uint64_t length, const BlockCallback& onBlock);
    Result<Outcome> mapRange(int fd, const std::filesystem::path& path, std::uint64_t offset,
                             std::uint64_t length, const BlockCallback& onBlock);

    Options m_options;
    std::unique_ptr<unsigned char[]> m_buffer;
};

} // namespace ckpt
