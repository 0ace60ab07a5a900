#pragma once

#include <cstdint>
#include <filesystem>

namespace ckpt::test {

// Makes the hostile things that stand where a regular file is expected: they
// are real (mkfifo, bind, ftruncate), never simulated. Each fails the current
// Qt test when the system refuses.
class SpecialFiles
{
public:
    static void fifo(const std::filesystem::path& path);
    // A bound AF_UNIX socket; the socket file stays after the descriptor closes.
    static void socket(const std::filesystem::path& path);
    // A character device node with the numbers of `like` (e.g. /dev/zero: a
    // reader of it never ends). Needs root (CAP_MKNOD): returns errno, 0 when
    // made, so a test that is not root can skip with that reason.
    static int device(const std::filesystem::path& path, const std::filesystem::path& like);
    // A sparse file of `bytes` (a 1 GiB ckpt-info.json costs no disk).
    static void sparse(const std::filesystem::path& path, std::uint64_t bytes);
};

} // namespace ckpt::test
