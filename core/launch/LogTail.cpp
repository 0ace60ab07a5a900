#include "launch/LogTail.h"

#include "io/AtomicFile.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

Result<std::string> LogTail::readMore(std::size_t maxBytes)
{
    const int fd = ::open(m_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return std::string();
        return Error{osError(m_path, errno), m_path.string()};
    }
    struct stat st
    {};
    if (::fstat(fd, &st) != 0) {
        const int err = errno;
        ::close(fd);
        return Error{osError(m_path, err), m_path.string()};
    }
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if ((m_inode != 0 && st.st_ino != m_inode) || size < m_offset)
        m_offset = 0; // replaced or truncated: start over
    m_inode = st.st_ino;
    std::string out;
    const std::uint64_t want = std::min<std::uint64_t>(size - m_offset, maxBytes);
    out.resize(static_cast<std::size_t>(want));
    std::size_t got = 0;
    while (got < out.size()) {
        const ssize_t n =
            ::pread(fd, out.data() + got, out.size() - got, static_cast<off_t>(m_offset + got));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    out.resize(got);
    m_offset += got;
    return out;
}

} // namespace ckpt
