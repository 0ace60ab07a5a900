#include "keras/KerasFileCheck.h"

#include "io/RegularFile.h"
#include "layout/UniqueFd.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace {

constexpr std::string_view kHdf5Magic("\x89HDF\r\n\x1a\n", 8);
constexpr std::string_view kZipMagic("PK\x03\x04", 4);
constexpr std::string_view kZipEnd("PK\x05\x06", 4);
constexpr std::size_t kHeadBytes = 96;
// The end-of-central-directory record is 22 bytes plus a comment of at most 64 KiB.
constexpr std::size_t kZipTailBytes = 22 + 65535;

std::string readAt(int fd, std::uint64_t offset, std::size_t bytes)
{
    std::string out(bytes, '\0');
    std::size_t got = 0;
    while (got < bytes) {
        const ssize_t n = ::pread(fd, out.data() + got, bytes - got, off_t(offset + got));
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            break;
        }
        got += std::size_t(n);
    }
    out.resize(got);
    return out;
}

std::uint64_t littleEndian(std::string_view bytes, std::size_t at, std::size_t size)
{
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < size; ++i)
        v |= std::uint64_t(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return v;
}

std::string sizeText(std::uint64_t bytes)
{
    return RegularFile::sizeText(bytes);
}

// Why an HDF5 file is not whole, or "" when it is.
std::string hdf5Problem(std::string_view head, std::uint64_t size)
{
    if (head.size() > 11 && static_cast<unsigned char>(head[8]) >= 3 &&
        (static_cast<unsigned char>(head[11]) & 0x1))
        return "is marked open for writing in its HDF5 superblock";
    const auto eof = KerasFileCheck::hdf5EndOfFile(head);
    if (!eof)
        return head.size() < kHeadBytes && size < kHeadBytes
                   ? "ends inside its HDF5 superblock (" + sizeText(size) + ")"
                   : std::string();
    if (size < *eof)
        return "is " + sizeText(size) + " but its HDF5 superblock says " + sizeText(*eof) +
               ": truncated";
    if (size > *eof)
        return "is " + sizeText(size) + ", past the " + sizeText(*eof) +
               " its HDF5 superblock records: the writer has not closed it";
    return {};
}

std::string zipProblem(int fd, std::uint64_t size)
{
    const std::size_t tailBytes = std::size_t(std::min<std::uint64_t>(size, kZipTailBytes));
    // Most archives have no comment: the record is the last 22 bytes.
    std::string tail = readAt(fd, size - std::min<std::uint64_t>(size, 22), 22);
    if (tail.size() == 22 && tail.compare(0, 4, kZipEnd) == 0)
        return {};
    tail = readAt(fd, size - tailBytes, tailBytes);
    if (tail.size() >= 22) {
        for (std::size_t i = tail.size() - 22 + 1; i-- > 0;)
            if (tail.compare(i, 4, kZipEnd) == 0)
                return {};
    }
    return "has no zip central directory at its end: the archive was not finished";
}

std::string jsonProblem(int fd, std::uint64_t size)
{
    const std::size_t n = std::size_t(std::min<std::uint64_t>(size, 64));
    const std::string tail = readAt(fd, size - n, n);
    const auto last = tail.find_last_not_of(" \t\r\n");
    if (last == std::string::npos || (tail[last] != '}' && tail[last] != ']'))
        return "does not end its JSON text: the file was not finished";
    return {};
}

} // namespace

std::optional<std::uint64_t> KerasFileCheck::hdf5EndOfFile(std::string_view head)
{
    if (head.size() < 16 || head.substr(0, 8) != kHdf5Magic)
        return std::nullopt;
    const unsigned version = static_cast<unsigned char>(head[8]);
    std::size_t offsets = 0, base = 0;
    if (version <= 1) {
        offsets = static_cast<unsigned char>(head[13]);
        base = version == 0 ? 24 : 28;
    } else if (version <= 3) {
        offsets = static_cast<unsigned char>(head[9]);
        base = 12;
    } else {
        return std::nullopt;
    }
    if (offsets != 2 && offsets != 4 && offsets != 8)
        return std::nullopt;
    const std::size_t eofAt = base + 2 * offsets;
    if (head.size() < eofAt + offsets)
        return std::nullopt;
    const std::uint64_t undefined = offsets == 8 ? ~0ull : (1ull << (8 * offsets)) - 1;
    const std::uint64_t baseAddress = littleEndian(head, base, offsets);
    const std::uint64_t eof = littleEndian(head, eofAt, offsets);
    if (eof == undefined || baseAddress == undefined || eof > ~0ull - baseAddress)
        return std::nullopt;
    return baseAddress + eof;
}

KerasFileCheck::Outcome KerasFileCheck::check(const std::string& dir, const std::string& name)
{
    return checkAt(AT_FDCWD, dir, name);
}

KerasFileCheck::Outcome KerasFileCheck::checkAt(int dirFd, const std::string& dir,
                                                const std::string& name)
{
    Outcome out;
    out.file.name = name;
    out.file.model = true;
    // The whole path is for messages (and for a call without a folder descriptor).
    const auto path = [&] { return dir + "/" + name; };
    UniqueFd fd;
    std::uint64_t size = 0;
    struct stat st = {}; // what opening found: no second fstat
    const RegularFile::Outcome opened =
        dirFd == AT_FDCWD ? RegularFile::openAt(dirFd, path().c_str(), fd, &size, &st)
                          : RegularFile::openAt(dirFd, name.c_str(), fd, &size, &st);
    if (!opened.ok()) {
        out.missing = opened.missing();
        out.unreadable = !out.missing;
        out.problem = opened.message(path());
        return out;
    }
    out.file.present = true;
    out.file.bytes = std::uint64_t(st.st_size);
    out.file.mtimeNs = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    out.file.inode = std::uint64_t(st.st_ino);
    size = out.file.bytes;

    const std::string head = readAt(fd.get(), 0, kHeadBytes);
    std::string why;
    if (size == 0)
        why = "is empty: the save has only just begun, or was interrupted";
    else if (head.compare(0, kHdf5Magic.size(), kHdf5Magic) == 0)
        why = hdf5Problem(head, size);
    else if (head.compare(0, kZipMagic.size(), kZipMagic) == 0)
        why = zipProblem(fd.get(), size);
    else if (head.find_first_not_of(" \t\r\n") != std::string::npos &&
             (head[head.find_first_not_of(" \t\r\n")] == '{'))
        why = jsonProblem(fd.get(), size);
    else if (kHdf5Magic.substr(0, std::min(kHdf5Magic.size(), head.size())) ==
             std::string_view(head).substr(0, std::min(kHdf5Magic.size(), head.size())))
        why = "ends inside its HDF5 superblock (" + sizeText(size) + ")";
    else
        why = "is neither HDF5, a .keras zip nor JSON: not a file ModelCheckpoint writes";
    if (why.empty()) {
        out.whole = true;
        return out;
    }
    out.problem = path() + " " + why;
    return out;
}

} // namespace ckpt
