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
    // A sparse file of `bytes` (a 1 GiB ckpt-info.json costs no disk).
    static void sparse(const std::filesystem::path& path, std::uint64_t bytes);
};

} // namespace ckpt::test
