#pragma once

#include "common/Result.h"

#include <chrono>
#include <filesystem>

namespace ckpt {

// An exclusive advisory lock on one run (flock on <root>/.ckpt-studio/lock), held
// while an action changes the run, so that two Ckpt Studio processes (GUI and
// CLI) never interleave a check and a change. CANDLE itself does not take it:
// actions still re-check the disk just before they change it.
class RunLock
{
public:
    // Waits up to `wait` for another holder to finish, then fails naming the run.
    static Result<RunLock> acquire(const std::filesystem::path& runRoot,
                                   std::chrono::milliseconds wait = std::chrono::seconds(5));

    // <root>/.ckpt-studio: where Ckpt Studio keeps its per-run state.
    static std::filesystem::path stateDir(const std::filesystem::path& runRoot);

    RunLock(RunLock&& other) noexcept;
    RunLock& operator=(RunLock&& other) noexcept;
    RunLock(const RunLock&) = delete;
    RunLock& operator=(const RunLock&) = delete;
    ~RunLock();

private:
    explicit RunLock(int fd) : m_fd(fd) {}
    int m_fd = -1;
};

} // namespace ckpt
