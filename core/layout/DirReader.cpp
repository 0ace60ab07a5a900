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

DirEntry::Type typeOf(DIR* d, const dirent* e)
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
        if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
            return fromMode(st.st_mode);
        return DirEntry::Type::Other;
    }
    default:
        return DirEntry::Type::Other;
    }
}

// Takes ownership of `fd` (a directory descriptor).
int visitEntries(int fd, const DirReader::Visitor& visit)
{
    DIR* d = ::fdopendir(fd);
    if (!d) {
        const int err = errno;
        ::close(fd);
        return err;
    }
    errno = 0;
    while (const dirent* e = ::readdir(d)) {
        const char* n = e->d_name;
        if (n[0] == '.' && (n[1] == '\0' || (n[1] == '.' && n[2] == '\0')))
            continue;
        DirEntry entry;
        entry.name = n;
        entry.type = typeOf(d, e);
        if (!visit(entry, e->d_ino))
            break;
        errno = 0;
    }
    const int err = errno;
    ::closedir(d);
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
    // getdents64 with a small buffer rather than readdir's 32 kB: the kernel
    // lists only what fits, and the first epoch of a 500-epoch folder usually
    // comes in the first batch (the loader lists the folder whole later anyway).
    alignas(dirent64) char buffer[2048];
    DirEntry entry;
    int err = 0;
    while (!found) {
        const ssize_t n = ::getdents64(fd, buffer, sizeof buffer);
        if (n <= 0) {
            err = n < 0 ? errno : 0;
            break;
        }
        for (ssize_t at = 0; at < n && !found;) {
            const auto* e = reinterpret_cast<const dirent64*>(buffer + at);
            at += e->d_reclen;
            const char* name = e->d_name;
            if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0')))
                continue;
            entry.name = name;
            switch (e->d_type) {
            case DT_DIR:
                entry.type = DirEntry::Type::Directory;
                break;
            case DT_REG:
                entry.type = DirEntry::Type::File;
                break;
            case DT_LNK:
                entry.type = DirEntry::Type::Symlink;
                break;
            case DT_UNKNOWN: {
                struct stat st = {};
                entry.type = ::fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0
                                 ? fromMode(st.st_mode)
                                 : DirEntry::Type::Other;
                break;
            }
            default:
                entry.type = DirEntry::Type::Other;
                break;
            }
            found = match(entry);
        }
    }
    ::close(fd);
    return err;
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
