#pragma once

#include <cstddef>
#include <string_view>

namespace ckpt {

// Walks a text line by line without copying. Strips "\r\n" and a leading UTF-8
// BOM. A last line without its '\n' is reported as unterminated: a writer may
// still be in the middle of it.
class TextLines
{
public:
    explicit TextLines(std::string_view text);

    // Next line into `line`; false at the end.
    bool next(std::string_view& line);
    // 1-based number of the line last returned.
    std::size_t number() const { return m_number; }
    bool terminated() const { return m_terminated; }

private:
    std::string_view m_text;
    std::size_t m_pos = 0;
    std::size_t m_number = 0;
    bool m_terminated = true;
};

} // namespace ckpt
