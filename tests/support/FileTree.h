#pragma once

#include <QByteArray>

#include <filesystem>
#include <map>
#include <string>

namespace ckpt::test {

// A snapshot of everything below a folder, to prove an operation that failed
// left it as it was: relative path -> what it is (link text, "dir", or a
// file's size and, under 64 KiB, its content). Hidden entries (our temporary
// files, `.ckpt-studio/`) are included.
using FileTree = std::map<std::string, std::string>;

// Entries whose relative path starts with `skip` (a filler of the test's own)
// are left out, with what is below them.
FileTree treeOf(const std::filesystem::path& dir, const std::string& skip = "filler");

// Every regular file below `dir` with the SHA-256 of its bytes, Ckpt Studio's
// own `.ckpt-studio/` folders left out: "byte for byte as it was" for trees
// of any size (by absolute path).
std::map<std::string, QByteArray> filesByHash(const std::filesystem::path& dir);

// One line per entry changed, gone or new, for a failure message.
QByteArray diffOf(const FileTree& before, const FileTree& after);

// Is `after` the same tree as `before` but for lock files (the run's, the
// registry's), the folder holding the run lock, and lines appended to the
// journal or the audit log (ckpt.log) recording the attempt and its rollback
// (whole lines only: an aborted change is written down, never torn)?
bool sameButBookkeeping(const FileTree& before, const FileTree& after);

} // namespace ckpt::test
