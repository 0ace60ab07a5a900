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

// The type readdir gave, or lstat's where the file system gives none.
DirEntry::Type typeOf(int dirFd, const dirent* e)
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

// Takes ownership of `fd` (a directory descriptor): gives each entry (but .
// and ..) to `visit` until it returns false; returns errno or 0.
int visitEntries(int fd, const DirReader::Visitor& visit)
{
    DIR* dir = ::fdopendir(fd);
    if (!dir) {
        const int err = errno;
        ::close(fd);
        return err;
    }
    int err = 0;
    DirEntry entry;
    for (;;) {
        errno = 0;
        const dirent* e = ::readdir(dir);
        if (!e) {
            err = errno;
            break;
        }
        if (isDotOrDotDot(e->d_name))
            continue;
        entry.name = e->d_name;
        entry.type = typeOf(::dirfd(dir), e);
        if (!visit(entry, e->d_ino))
            break;
    }
    ::closedir(dir);
    return err;
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
    return visitEntries(fd, [&](const DirEntry& entry, std::uint64_t) {
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
