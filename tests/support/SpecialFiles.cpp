#include "SpecialFiles.h"

#include <QTest>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace ckpt::test {

void SpecialFiles::fifo(const std::filesystem::path& path)
{
    QCOMPARE(::mkfifo(path.c_str(), 0644), 0);
}

void SpecialFiles::socket(const std::filesystem::path& path)
{
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    QVERIFY(fd >= 0);
    sockaddr_un addr = {};
    addr.sun_family = AF_UNIX;
    const std::string p = path.string();
    QVERIFY2(p.size() < sizeof addr.sun_path, p.c_str());
    std::copy(p.begin(), p.end(), addr.sun_path);
    const int bound = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::close(fd);
    QCOMPARE(bound, 0);
}

int SpecialFiles::device(const std::filesystem::path& path, const std::filesystem::path& like)
{
    struct stat st = {};
    if (::stat(like.c_str(), &st) != 0 || !S_ISCHR(st.st_mode))
        return ENODEV;
    return ::mknod(path.c_str(), S_IFCHR | 0644, st.st_rdev) == 0 ? 0 : errno;
}

void SpecialFiles::sparse(const std::filesystem::path& path, std::uint64_t bytes)
{
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    QVERIFY(fd >= 0);
    const int truncated = ::ftruncate(fd, static_cast<off_t>(bytes));
    ::close(fd);
    QCOMPARE(truncated, 0);
}

} // namespace ckpt::test
