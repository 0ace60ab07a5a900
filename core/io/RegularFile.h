#pragma once

#include "common/Result.h"
#include "layout/UniqueFd.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <sys/stat.h>

namespace ckpt {

// Opens files that a user's directory names without trusting them to be files:
// a FIFO never blocks the open (O_NONBLOCK), anything but a regular file (FIFO,
// device, socket, directory, also behind a symlink) is refused after fstat, and
// whole-file reads stop at a size limit, so a ckpt-info.json linked to /dev/zero
// or a 1 GiB one costs one open and one fstat, not gigabytes.
class RegularFile
{
public:
    // Metadata written in one go by a trainer: ckpt-info.json, config files, history.txt.
    static constexpr std::uint64_t kMetadataLimit = 4ull << 20;
    // Logs appended over a whole run: ckpt.log, training.log, our journal.
    // 32 MiB is some 30,000 verbose epochs; parsed samples take ~30x their text.
    static constexpr std::uint64_t kLogLimit = 32ull << 20;

    // Why a read did not happen: an errno from open/fstat/read, or a refusal.
    struct Outcome
    {
        int err = 0;
        std::string refusal; // "is a FIFO, not a regular file", "is 1.0 GiB, over the 4 MiB ..."
        bool ok() const { return err == 0 && refusal.empty(); }
        bool missing() const; // ENOENT or ENOTDIR
        // "<path>: <strerror>" or "<path> <refusal>".
        std::string message(const std::string& path) const;
    };

    // Opens `name` relative to `dirFd` (AT_FDCWD for an ordinary path) read-only;
    // `fd` is set only when the file is regular. `size` receives its size and
    // `status` (when given) all of fstat's answer, when the file was opened.
    static Outcome openAt(int dirFd, const char* name, UniqueFd& fd, std::uint64_t* size = nullptr,
                          struct stat* status = nullptr);
    // Reads the whole regular file into `out`, refusing one larger than `limit`.
    static Outcome readAt(int dirFd, const char* name, std::uint64_t limit, std::string& out);

    static Result<UniqueFd> open(const std::filesystem::path& path);
    static Result<std::string> read(const std::filesystem::path& path, std::uint64_t limit);
    // The first `bytes` bytes of the regular file (fewer when it is shorter),
    // for sniffing a format by content.
    static Result<std::string> readHead(const std::filesystem::path& path, std::size_t bytes);

    // "a FIFO", "a character device", "a socket", ... for a st_mode.
    static std::string kindOf(unsigned mode);
    // 1536 -> "1536 bytes", 98304 -> "96.0 KiB", 1073741824 -> "1.0 GiB".
    static std::string sizeText(std::uint64_t bytes);
};

} // namespace ckpt
