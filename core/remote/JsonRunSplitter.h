#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// Cuts the run objects out of a `ckpt scan --json` stream as it arrives
// ({"protocol": N, "runs": [{run}, {run}, ...]}), so a client can show the
// first run while the far scan still prints the others. A small scanner:
// depth of {} and [] outside strings, the key in front of each top-level
// member; only the objects directly inside "runs" are cut out.
class JsonRunSplitter
{
public:
    // Appends `chunk`; returns the runs completed by it, as JSON texts.
    std::vector<std::string> feed(std::string_view chunk);
    // Has the whole document been read (its outermost object closed)?
    bool complete() const { return m_closed; }
    // The document without its runs ({"protocol": 1, "runs": [], ...}): the
    // members around the runs (walk_problems), once complete.
    const std::string& rest() const { return m_rest; }

private:
    std::string m_run;  // the run being read
    std::string m_rest; // everything but the runs
    std::string m_key;  // the last string read at depth 1 (the member's key)
    std::string m_string;
    int m_depth = 0;
    bool m_inString = false;
    bool m_escape = false;
    bool m_inRuns = false; // inside the "runs" array (depth 2)
    bool m_closed = false;
};

} // namespace ckpt
