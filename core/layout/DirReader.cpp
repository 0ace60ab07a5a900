#include "layout/DirReader.h"

#include "io/AtomicFile.h"

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace {

DirEntry::Type fromMode(mode_t mode)
{
    if (S_ISDIR(mode))
        return DirEntry::Type::Directory;
    if (S_ISREG(mode))
        return DirEntry::Type::File;
    if (S_ISLNK(mode))
        return DirEntry::Type::Symlink;
    return DirEntry::Type::Other;
}

// The type getdents64 gave, or lstat's where the file system gives none.
DirEntry::Type typeOf(int dirFd, const dirent64* e)
{
    switch (e->d_type) {
    case DT_DIR:
        return DirEntry::Type::Directory;
    case DT_REG:
        return DirEntry::Type::File;
    case DT_LNK:
        return DirEntry::Type::Symlink;
    case DT_UNKNOWN: {
        struct stat st = {};
        if (::fstatat(dirFd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
            return fromMode(st.st_mode);
        return DirEntry::Type::Other;
    }
    default:
        return DirEntry::Type::Other;
    }
}

bool isDotOrDotDot(const char* n)
{
    return n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0'));
}

// The entries of `fd` (but . and ..) through getdents64 into `buffer`, each
// given to `visit` until it returns false; closes `fd`, returns errno or 0.
// No DIR to allocate, and none of the two fcntl calls fdopendir makes (a scan
// lists hundreds of folders).
template <typename Visit> int eachEntry(int fd, char* buffer, std::size_t bytes, const Visit& visit)
{
    int err = 0;
    DirEntry entry;
    for (bool more = true; more;) {
        const ssize_t n = ::getdents64(fd, buffer, bytes);
        if (n <= 0) {
            err = n < 0 ? errno : 0;
            break;
        }
        for (ssize_t at = 0; at < n && more;) {
            const auto* e = reinterpret_cast<const dirent64*>(buffer + at);
            at += e->d_reclen;
            if (isDotOrDotDot(e->d_name))
                continue;
            entry.name = e->d_name;
            entry.type = typeOf(fd, e);
            more = visit(entry, e->d_ino);
        }
    }
    ::close(fd);
    return err;
}

// Takes ownership of `fd` (a directory descriptor). A buffer as large as readdir's.
int visitEntries(int fd, const DirReader::Visitor& visit)
{
    alignas(dirent64) char buffer[32768];
    return eachEntry(fd, buffer, sizeof buffer, visit);
}

// Takes ownership of `fd`. Stops early when `stop` returns true for an entry just added.
int readEntries(int fd, std::vector<DirEntry>& out,
                const std::function<bool(const DirEntry&)>& stop = {})
{
    out.clear();
    return visitEntries(fd, [&](DirEntry& entry, std::uint64_t) {
        out.push_back(std::move(entry));
        return !(stop && stop(out.back()));
    });
}

} // namespace

int DirReader::list(const char* dir, std::vector<DirEntry>& out)
{
    const int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    return readEntries(fd, out);
}

int DirReader::forEach(const char* dir, const Visitor& visit)
{
    const int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    return visitEntries(fd, visit);
}

int DirReader::listAt(int dirFd, const char* name, std::vector<DirEntry>& out)
{
    const int fd = ::openat(dirFd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    return readEntries(fd, out);
}

Result<DirListing> DirReader::list(const std::filesystem::path& dir)
{
    DirListing listing;
    listing.dir = dir;
    if (const int err = list(dir.c_str(), listing.entries))
        return Error{osError(dir, err), dir.string()};
    return listing;
}

int DirReader::containsEntry(const char* dir, const std::function<bool(const DirEntry&)>& match,
                             bool& found)
{
    found = false;
    const int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno;
    // getdents64 with a small buffer rather than readdir's 32 kB: the kernel
    // lists only what fits, and the first epoch of a 500-epoch folder usually
    // comes in the first batch (the loader lists the folder whole later anyway).
    alignas(dirent64) char buffer[2048];
    return eachEntry(fd, buffer, sizeof buffer, [&](const DirEntry& entry, std::uint64_t) {
        found = match(entry);
        return !found;
    });
}

DirEntry::Type DirReader::typeAt(int dirFd, const char* name)
{
    struct stat st = {};
    if (::fstatat(dirFd, name, &st, 0) != 0)
        return DirEntry::Type::Other;
    return fromMode(st.st_mode);
}

bool DirReader::isDigits(std::string_view name)
{
    if (name.empty())
        return false;
    for (char c : name)
        if (c < '0' || c > '9')
            return false;
    return true;
}

} // namespace ckpt
