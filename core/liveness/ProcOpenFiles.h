#pragma once

#include <string>
#include <vector>

namespace ckpt {

// The files processes hold open, read from /proc/<pid>/fd (Linux). Processes
// of other users are unreadable without privileges: `complete` says whether
// every process could be looked at, so "nobody holds it" is only trusted then.
class ProcOpenFiles
{
public:
    // Reads /proc now; a snapshot younger than `maxAgeMs` is shared instead
    // (many runs assessed at once cost one walk of /proc).
    static ProcOpenFiles snapshot(int maxAgeMs = 1000);
    // Reads `procDir` (tests pass a fake tree).
    static ProcOpenFiles read(const std::string& procDir = "/proc");

    // Whether any process has a file open at or below `dir`, or `file` itself.
    bool anyUnder(const std::string& dir) const;
    bool isOpen(const std::string& file) const;
    bool complete() const { return m_complete; }

private:
    std::vector<std::string> m_paths; // sorted
    bool m_complete = true;
};

} // namespace ckpt
