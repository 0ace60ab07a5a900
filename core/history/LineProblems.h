#pragma once

#include "model/Problem.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace ckpt {

// Collects BadLog problems of one file as "file:line: what", up to a limit, so a
// log full of garbage yields a readable list and one summary instead of
// thousands of entries.
class LineProblems
{
public:
    LineProblems(Problems& out, std::string path, std::size_t limit = 50);

    void add(std::size_t line, std::string_view what);
    // Adds the summary of problems dropped over the limit, if any.
    void finish();

private:
    Problems& m_out;
    std::string m_path;
    std::size_t m_limit;
    std::size_t m_count = 0;
};

} // namespace ckpt
