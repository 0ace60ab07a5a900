#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ckpt {

// What /proc says about a process: enough to tell that a recorded pid is still
// the trainer we started (and not a reused pid) and to find its process group.
class ProcessProbe
{
public:
    struct Info
    {
        std::int64_t pid = 0;
        std::int64_t ppid = 0;
        std::int64_t pgid = 0;
        char state = '?';            // R, S, D, Z, T, ...
        std::uint64_t startTime = 0; // clock ticks after boot (field 22)
    };

    static std::optional<Info> read(std::int64_t pid);

    // Alive (not a zombie) and, when `startTime` is non-zero, the same process.
    static bool alive(std::int64_t pid, std::uint64_t startTime = 0);

    // Every live process in process group `pgid`.
    static std::vector<std::int64_t> groupMembers(std::int64_t pgid);
};

} // namespace ckpt
