#include "checksum/CrcReader.h"

#include "checksum/Crc32.h"
#include "io/AtomicFile.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace {

Error shrank(const std::filesystem::path& path)
{
    return Error::at(path.string(), "file shrank while it was being read");
}

Error cancelled(const std::filesystem::path& path)
{
    return Error{"cancelled", path.string()};
}

} // namespace

CrcReader::CrcReader() : CrcReader(Options{}) {}

CrcReader::CrcReader(Options options) : m_options(options)
{
    m_options.blockBytes = std::max<std::size_t>(m_options.blockBytes, 4096);
    if (m_options.strategy == Strategy::Read)
        m_buffer.reset(new unsigned char[m_options.blockBytes]);
}

Result<CrcReader::Outcome> CrcReader::crcRange(int fd, const std::filesystem::path& path,
                                               std::uint64_t offset, std::uint64_t length,
                                               const BlockCallback& onBlock)
{
    if (m_options.strategy == Strategy::Mmap)
        return mapRange(fd, path, offset, length, onBlock);
    return readRange(fd, path, offset, length, onBlock);
}

Result<CrcReader::Outcome> CrcReader::crcFile(const std::filesystem::path& path,
                                              const BlockCallback& onBlock)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return Error{osError(path, errno), path.string()};
    // Tells the kernel to read ahead aggressively on a cold cache.
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
    auto outcome = crcRange(fd, path, 0, kToEnd, onBlock);
    ::close(fd);
    return outcome;
}

Result<CrcReader::Outcome> CrcReader::readRange(int fd, const std::filesystem::path& path,
                                                std::uint64_t offset, std::uint64_t length,
                                                const BlockCallback& onBlock)
{
    Outcome out;
    while (out.bytes < length) {
        const std::size_t want = static_cast<std::size_t>(
            std::min<std::uint64_t>(m_options.blockBytes, length - out.bytes));
        // pread keeps one descriptor usable by several readers at once.
        const ssize_t n = ::pread(fd, m_buffer.get(), want, static_cast<off_t>(offset + out.bytes));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return Error{osError(path, errno), path.string()};
        }
        if (n == 0) {
            if (length != kToEnd)
                return shrank(path);
            break;
        }
        out.crc = Crc32::update(out.crc, m_buffer.get(), static_cast<std::size_t>(n));
        out.bytes += static_cast<std::uint64_t>(n);
        if (onBlock && !onBlock(static_cast<std::uint64_t>(n)))
            return cancelled(path);
    }
    return out;
}

Result<CrcReader::Outcome> CrcReader::mapRange(int fd, const std::filesystem::path& path,
                                               std::uint64_t offset, std::uint64_t length,
                                               const BlockCallback& onBlock)
{
    struct stat st
    {};
    if (::fstat(fd, &st) != 0)
        return Error{osError(path, errno), path.string()};
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (offset > size || (length != kToEnd && offset + length > size))
        return shrank(path);
    const std::uint64_t end = length == kToEnd ? size : offset + length;
    Outcome out;
    if (end == offset)
        return out;
    // mmap offsets must be page aligned; the CRC starts at `offset` inside the map.
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    const std::uint64_t mapStart = offset / page * page;
    const std::size_t mapLen = static_cast<std::size_t>(end - mapStart);
    void* map = ::mmap(nullptr, mapLen, PROT_READ, MAP_SHARED, fd, static_cast<off_t>(mapStart));
    if (map == MAP_FAILED)
        return Error{osError(path, errno), path.string()};
    ::madvise(map, mapLen, MADV_SEQUENTIAL | MADV_WILLNEED);
    const auto* base = static_cast<const unsigned char*>(map) + (offset - mapStart);
    const std::uint64_t total = end - offset;
    bool stopped = false;
    while (out.bytes < total) {
        const auto n = std::min<std::uint64_t>(m_options.blockBytes, total - out.bytes);
        out.crc = Crc32::update(out.crc, base + out.bytes, static_cast<std::size_t>(n));
        out.bytes += n;
        if (onBlock && !onBlock(n)) {
            stopped = true;
            break;
        }
    }
    ::munmap(map, mapLen);
    if (stopped)
        return cancelled(path);
    return out;
}

} // namespace ckpt
