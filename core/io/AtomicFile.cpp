#include "io/AtomicFile.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

std::string uniqueSuffix()
{
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s = ".tmp-";
    auto bits = rng();
    for (int i = 0; i < 12; ++i, bits >>= 4)
        s += kHex[bits & 0xf];
    return s;
}

fs::path asidePath(const fs::path& path)
{
    // Appended, not "." + string: GCC 12 at -O3 warns falsely (-Wrestrict) on that.
    std::string name(1, '.');
    name += path.filename().string();
    name += uniqueSuffix();
    return path.parent_path() / name;
}

Status writeAll(int fd, std::string_view content, const fs::path& path)
{
    const char* p = content.data();
    size_t left = content.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return Error::at(path.string(), std::string("write failed: ") + std::strerror(errno));
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
    return {};
}

} // namespace

bool isMadeAsideName(std::string_view name)
{
    return name.starts_with('.') && (name.find(".tmp-", 1) != std::string_view::npos ||
                                     name.find(".forking-", 1) != std::string_view::npos);
}

std::string osError(const fs::path& path, int err)
{
    return path.string() + ": " + std::strerror(err);
}

Status writeFileAtomically(const fs::path& path, std::string_view content)
{
    const fs::path tmp = asidePath(path);
    // Errors name the file the user knows (the target), not our file aside.
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error{"cannot write " + osError(path, errno), path.string()};
    Status st = writeAll(fd, content, path);
    if (st && ::fsync(fd) != 0)
        st = Error{"cannot write " + osError(path, errno), path.string()};
    ::close(fd);
    if (st && ::rename(tmp.c_str(), path.c_str()) != 0)
        st = Error{"cannot rename " + tmp.string() + " to " + osError(path, errno), path.string()};
    if (!st)
        ::unlink(tmp.c_str());
    return st;
}

Status appendLine(const fs::path& path, std::string_view line)
{
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error{osError(path, errno), path.string()};
    std::string buf(line);
    buf += '\n';
    Status st = writeAll(fd, buf, path);
    ::close(fd);
    return st;
}

Result<std::string> readFile(const fs::path& path, std::uint64_t limit)
{
    return RegularFile::read(path, limit);
}

Status replaceSymlink(const fs::path& link, const fs::path& target)
{
    const fs::path tmp = asidePath(link);
    if (::symlink(target.c_str(), tmp.c_str()) != 0)
        return Error{"cannot replace link " + osError(link, errno), link.string()};
    if (::rename(tmp.c_str(), link.c_str()) != 0) {
        int err = errno;
        ::unlink(tmp.c_str());
        return Error{"cannot replace link " + osError(link, err), link.string()};
    }
    return {};
}

} // namespace ckpt
