#include "ops/RunLock.h"

#include "io/AtomicFile.h"

#include <cerrno>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

fs::path RunLock::stateDir(const fs::path& runRoot)
{
    return runRoot / ".ckpt-studio";
}

Result<RunLock> RunLock::acquire(const fs::path& runRoot, std::chrono::milliseconds wait)
{
    const fs::path dir = stateDir(runRoot);
    if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
        return Error{"cannot create " + osError(dir, errno), dir.string()};
    const fs::path lockPath = dir / "lock";
    const int fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error{"cannot open lock " + osError(lockPath, errno), lockPath.string()};
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
        if (::flock(fd, LOCK_EX | LOCK_NB) == 0)
            return RunLock(fd);
        const int err = errno;
        if (err != EWOULDBLOCK && err != EINTR) {
            ::close(fd);
            return Error{"cannot lock " + osError(lockPath, err), lockPath.string()};
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            ::close(fd);
            return Error::at(runRoot.string(),
                             "another Ckpt Studio action is in progress on this run (lock " +
                                 lockPath.string() + " held); try again when it has finished");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

RunLock::RunLock(RunLock&& other) noexcept : m_fd(other.m_fd)
{
    other.m_fd = -1;
}

RunLock& RunLock::operator=(RunLock&& other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = other.m_fd;
        other.m_fd = -1;
    }
    return *this;
}

RunLock::~RunLock()
{
    // Closing the descriptor releases the flock.
    if (m_fd >= 0)
        ::close(m_fd);
}

} // namespace ckpt
