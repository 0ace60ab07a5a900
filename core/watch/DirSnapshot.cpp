#include "watch/DirSnapshot.h"

#include "io/AtomicFile.h"

#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>

namespace ckpt {

namespace {

DirEntry::Type typeOf(mode_t mode)
{
    if (S_ISDIR(mode))
        return DirEntry::Type::Directory;
    if (S_ISREG(mode))
        return DirEntry::Type::File;
    if (S_ISLNK(mode))
        return DirEntry::Type::Symlink;
    return DirEntry::Type::Other;
}

} // namespace

Result<std::vector<DirSnapshot::Entry>> DirSnapshot::read(const std::filesystem::path& dir)
{
    DIR* d = ::opendir(dir.c_str());
    if (!d)
        return Error{"cannot list " + osError(dir, errno), dir.string()};
    std::vector<Entry> entries;
    errno = 0;
    while (const dirent* e = ::readdir(d)) {
        const std::string_view name = e->d_name;
        if (name == "." || name == "..")
            continue;
        Entry entry{std::string(name), DirEntry::Type::Other, e->d_ino};
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
            // Some network and FUSE file systems give no type: ask, without following links.
            struct stat st
            {};
            if (::fstatat(::dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
                entry.type = typeOf(st.st_mode);
            break;
        }
        default:
            break;
        }
        entries.push_back(std::move(entry));
    }
    const int err = errno;
    ::closedir(d);
    if (err != 0)
        return Error{"cannot list " + osError(dir, err), dir.string()};
    return entries;
}

DirListing DirSnapshot::toListing(const std::filesystem::path& dir,
                                  const std::vector<Entry>& entries)
{
    DirListing listing;
    listing.dir = dir;
    listing.entries.reserve(entries.size());
    for (const Entry& e : entries)
        listing.entries.push_back({e.name, e.type});
    return listing;
}

DirSnapshot::StatKey DirSnapshot::stat(const std::filesystem::path& path)
{
    struct stat st
    {};
    if (::lstat(path.c_str(), &st) != 0)
        return {};
    StatKey key;
    key.exists = true;
    key.inode = st.st_ino;
    key.mtimeNs = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    key.ctimeNs = static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1000000000 + st.st_ctim.tv_nsec;
    key.size = static_cast<std::uint64_t>(st.st_size);
    return key;
}

bool DirSnapshot::isDirectory(const std::filesystem::path& path)
{
    struct stat st
    {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace ckpt
