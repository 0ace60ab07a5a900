#pragma once

#include "common/Result.h"
#include "io/RegularFile.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace ckpt {

// Writes `content` to a temporary file beside `path`, flushes it to disk and
// renames it over `path`: readers see the old content or the new, never half.
Status writeFileAtomically(const std::filesystem::path& path, std::string_view content);

// Appends one line (a '\n' is added) with a single O_APPEND write.
Status appendLine(const std::filesystem::path& path, std::string_view line);

// Reads a whole regular file of at most `limit` bytes (RegularFile: FIFOs,
// devices and oversized files are refused). The error names the file and why.
Result<std::string> readFile(const std::filesystem::path& path,
                             std::uint64_t limit = RegularFile::kLogLimit);

// Creates a symlink `link` -> `target` atomically: the new link is made beside
// under a temporary name and renamed over any existing `link`, so there is never
// a moment without one.
Status replaceSymlink(const std::filesystem::path& link, const std::filesystem::path& target);

// "<path>: <strerror(err)>"
std::string osError(const std::filesystem::path& path, int err);

// Is `name` one of our own entries being made aside (".<name>.tmp-<random>" of
// an atomic write, ".<folder>.forking-<pid>" of a fork)? Discovery skips them:
// they become something else whole (renamed in) or are left by a killed process.
bool isMadeAsideName(std::string_view name);

} // namespace ckpt
