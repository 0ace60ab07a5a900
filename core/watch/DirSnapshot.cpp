#include "watch/DirSnapshot.h"

#include "io/AtomicFile.h"
#include "layout/DirReader.h"

#include <sys/stat.h>

namespace ckpt {

Result<std::vector<DirSnapshot::Entry>> DirSnapshot::read(const std::filesystem::path& dir)
{
    std::vector<Entry> entries;
    const int err = DirReader::forEach(dir.c_str(), [&](DirEntry& e, std::uint64_t inode) {
        entries.push_back({std::move(e.name), e.type, inode});
        return true;
    });
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
