#include "checksum/CrcReader.h"

#include "checksum/Crc32.h"
#include "io/AtomicFile.h"
#include "io/RegularFile.h"

#include <algorithm>
#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <fcntl.h>
#include <mutex>
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

// A mapped file truncated by someone else raises SIGBUS on the next page
// touched. Only the CRC of a mapped block runs under this guard; the handler
// jumps back out of it, and hands every other SIGBUS to whoever had it before.
thread_local sigjmp_buf* t_guard = nullptr;
struct sigaction g_previous
{};
std::once_flag g_installed;

void onSigbus(int sig, siginfo_t* info, void* context)
{
    if (sigjmp_buf* guard = t_guard) {
        t_guard = nullptr;
        siglongjmp(*guard, 1);
    }
    if ((g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_sigaction) {
        g_previous.sa_sigaction(sig, info, context);
        return;
    }
    if (!(g_previous.sa_flags & SA_SIGINFO) && g_previous.sa_handler != SIG_DFL &&
        g_previous.sa_handler != SIG_IGN) {
        g_previous.sa_handler(sig);
        return;
    }
    ::signal(SIGBUS, SIG_DFL);
    ::raise(SIGBUS);
}

void installSigbusGuard()
{
    std::call_once(g_installed, [] {
        struct sigaction sa
        {};
        sa.sa_sigaction = onSigbus;
        // NODEFER: SIGBUS stays unblocked after the jump, so no mask to save per block.
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        ::sigaction(SIGBUS, &sa, &g_previous);
    });
}

// False when the mapping faulted. Kept apart so no local lives across the jump.
bool guardedUpdate(std::uint32_t& crc, const unsigned char* data, std::size_t size)
{
    sigjmp_buf guard;
    if (sigsetjmp(guard, 0) != 0)
        return false;
    t_guard = &guard;
    crc = Crc32::update(crc, data, size);
    t_guard = nullptr;
    return true;
}

} // namespace

CrcReader::CrcReader() : CrcReader(Options{}) {}

CrcReader::CrcReader(Options options) : m_options(options)
{
    m_options.blockBytes = std::max<std::size_t>(m_options.blockBytes, 4096);
    if (m_options.strategy == Strategy::Read)
        m_buffer.reset(new unsigned char[m_options.blockBytes]);
    else
        installSigbusGuard();
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
    auto opened = RegularFile::open(path);
    if (!opened)
        return opened.error();
    const int fd = opened->release();
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
    // Advice values are not flags: one call each.
    ::madvise(map, mapLen, MADV_SEQUENTIAL);
    ::madvise(map, mapLen, MADV_WILLNEED);
    const auto* base = static_cast<const unsigned char*>(map) + (offset - mapStart);
    const std::uint64_t total = end - offset;
    bool stopped = false;
    bool faulted = false;
    while (out.bytes < total) {
        const auto n = std::min<std::uint64_t>(m_options.blockBytes, total - out.bytes);
        if (!guardedUpdate(out.crc, base + out.bytes, static_cast<std::size_t>(n))) {
            faulted = true;
            break;
        }
        out.bytes += n;
        if (onBlock && !onBlock(n)) {
            stopped = true;
            break;
        }
    }
    ::munmap(map, mapLen);
    if (faulted)
        return shrank(path);
    if (stopped)
        return cancelled(path);
    return out;
}

} // namespace ckpt
