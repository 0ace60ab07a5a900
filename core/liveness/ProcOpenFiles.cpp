#include "liveness/ProcOpenFiles.h"

#include "layout/DirReader.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <climits>
#include <fcntl.h>
#include <mutex>
#include <unistd.h>

namespace ckpt {

ProcOpenFiles ProcOpenFiles::snapshot(int maxAgeMs)
{
    using Clock = std::chrono::steady_clock;
    static std::mutex mutex;
    static ProcOpenFiles cached;
    static Clock::time_point taken;
    static bool valid = false;
    std::lock_guard lock(mutex);
    const auto now = Clock::now();
    if (!valid || now - taken > std::chrono::milliseconds(maxAgeMs)) {
        cached = read();
        taken = now;
        valid = true;
    }
    return cached;
}

ProcOpenFiles ProcOpenFiles::read(const std::string& procDir)
{
    ProcOpenFiles out;
    std::vector<DirEntry> pids;
    if (DirReader::listAt(AT_FDCWD, procDir.c_str(), pids) != 0) {
        out.m_complete = false;
        return out;
    }
    const pid_t self = ::getpid();
    char target[PATH_MAX];
    for (const DirEntry& p : pids) {
        if (!DirReader::isDigits(p.name) || p.name == std::to_string(self))
            continue;
        const std::string fdDir = procDir + "/" + p.name + "/fd";
        std::vector<DirEntry> fds;
        const int err = DirReader::listAt(AT_FDCWD, fdDir.c_str(), fds);
        if (err != 0) {
            // A process that exited meanwhile is no loss; one we may not read is.
            if (err != ENOENT && err != ESRCH)
                out.m_complete = false;
            continue;
        }
        for (const DirEntry& fd : fds) {
            const std::string link = fdDir + "/" + fd.name;
            const ssize_t n = ::readlink(link.c_str(), target, sizeof target - 1);
            if (n > 0 && target[0] == '/')
                out.m_paths.emplace_back(target, static_cast<std::size_t>(n));
        }
    }
    std::sort(out.m_paths.begin(), out.m_paths.end());
    out.m_paths.erase(std::unique(out.m_paths.begin(), out.m_paths.end()), out.m_paths.end());
    return out;
}

bool ProcOpenFiles::anyUnder(const std::string& dir) const
{
    const std::string prefix = dir + "/";
    auto it = std::lower_bound(m_paths.begin(), m_paths.end(), prefix);
    return it != m_paths.end() && it->compare(0, prefix.size(), prefix) == 0;
}

bool ProcOpenFiles::isOpen(const std::string& file) const
{
    return std::binary_search(m_paths.begin(), m_paths.end(), file);
}

} // namespace ckpt
