#include "io/RegularFile.h"

#include "io/AtomicFile.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

bool RegularFile::Outcome::missing() const
{
    return err == ENOENT || err == ENOTDIR;
}

std::string RegularFile::Outcome::message(const std::string& path) const
{
    if (err != 0)
        return osError(path, err);
    return path + " " + refusal;
}

std::string RegularFile::kindOf(unsigned mode)
{
    switch (mode & S_IFMT) {
    case S_IFREG:
        return "a regular file";
    case S_IFDIR:
        return "a directory";
    case S_IFIFO:
        return "a FIFO (named pipe)";
    case S_IFCHR:
        return "a character device";
    case S_IFBLK:
        return "a block device";
    case S_IFSOCK:
        return "a socket";
    default:
        return "a special file";
    }
}

std::string RegularFile::sizeText(std::uint64_t bytes)
{
    static constexpr const char* kUnits[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    // Exact below 64 KiB, where a limit and a size just over it would read the same.
    if (bytes < 65536)
        return std::to_string(bytes) + " bytes";
    double v = static_cast<double>(bytes);
    int unit = 0;
    while (v >= 1024.0 && unit < 4) {
        v /= 1024.0;
        ++unit;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[unit]);
    return buf;
}

RegularFile::Outcome RegularFile::openAt(int dirFd, const char* name, UniqueFd& fd,
                                         std::uint64_t* size, struct stat* status)
{
    Outcome out;
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
    UniqueFd opened(::openat(dirFd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (!opened.valid()) {
        out.err = errno;
        // A socket cannot be opened at all (ENXIO): say what it is instead.
        struct stat st = {};
        if (out.err == ENXIO && ::fstatat(dirFd, name, &st, 0) == 0 && !S_ISREG(st.st_mode)) {
            out.err = 0;
            out.refusal = "is " + kindOf(st.st_mode) + ", not a regular file";
        }
        return out;
    }
    struct stat st = {};
    if (::fstat(opened.get(), &st) != 0) {
        out.err = errno;
        return out;
    }
    if (!S_ISREG(st.st_mode)) {
        out.refusal = "is " + kindOf(st.st_mode) + ", not a regular file";
        return out;
    }
    if (size)
        *size = static_cast<std::uint64_t>(st.st_size);
    if (status)
        *status = st;
    fd = std::move(opened);
    return out;
}

RegularFile::Outcome RegularFile::readAt(int dirFd, const char* name, std::uint64_t limit,
                                         std::string& out)
{
    UniqueFd fd;
    std::uint64_t size = 0;
    Outcome result = openAt(dirFd, name, fd, &size);
    if (!result.ok()) {
        out.clear();
        return result;
    }
    const auto tooLarge = [&](std::uint64_t bytes) {
        result.refusal = "is " + sizeText(bytes) + ", over the " + sizeText(limit) +
                         " such a file may have: not read";
        out.clear();
        return result;
    };
    if (size > limit)
        return tooLarge(size);
    // Read straight into `out`, with room for one byte more than fstat said
    // (a read that fills it means the file grew: more room, up to the limit).
    // The string is written over, not cleared first: a string kept from file
    // to file (the scan's) has its room zero-filled once, not once per file.
    // A file whose size fstat does not know (/proc, /sys) says 0.
    std::size_t got = 0;
    const std::size_t room = size > 0 ? static_cast<std::size_t>(size) + 1 : 4096;
    if (out.size() < room)
        out.resize(room);
    for (;;) {
        const ssize_t n = ::read(fd.get(), out.data() + got, out.size() - got);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            result.err = errno;
            out.clear();
            return result;
        }
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
        // The file may grow while we read (a trainer appending): stop at the limit all the same.
        if (got > limit)
            return tooLarge(got);
        if (got == out.size()) {
            const std::uint64_t most = limit < UINT64_MAX ? limit + 1 : limit;
            out.resize(static_cast<std::size_t>(std::max<std::uint64_t>(
                got + 1, std::min<std::uint64_t>(most, 2 * std::uint64_t{got}))));
        }
    }
    out.resize(got);
    return result;
}

Result<UniqueFd> RegularFile::open(const std::filesystem::path& path)
{
    UniqueFd fd;
    const Outcome outcome = openAt(AT_FDCWD, path.c_str(), fd);
    if (!outcome.ok())
        return Error{outcome.message(path.string()), path.string()};
    return fd;
}

Result<std::string> RegularFile::read(const std::filesystem::path& path, std::uint64_t limit)
{
    std::string text;
    const Outcome outcome = readAt(AT_FDCWD, path.c_str(), limit, text);
    if (!outcome.ok())
        return Error{outcome.message(path.string()), path.string()};
    return text;
}

Result<std::string> RegularFile::readHead(const std::filesystem::path& path, std::size_t bytes)
{
    auto fd = open(path);
    if (!fd)
        return fd.error();
    std::string head(bytes, '\0');
    std::size_t got = 0;
    while (got < bytes) {
        const ssize_t n = ::read(fd->get(), head.data() + got, bytes - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return Error::at(path.string(), std::strerror(errno));
        if (n == 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    head.resize(got);
    return head;
}

} // namespace ckpt
