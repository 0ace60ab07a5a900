#include "history/TextLines.h"

#include <cstring>

namespace ckpt {

TextLines::TextLines(std::string_view text) : m_text(text)
{
    if (m_text.substr(0, 3) == "\xEF\xBB\xBF")
        m_pos = 3;
}

bool TextLines::next(std::string_view& line)
{
    if (m_pos >= m_text.size())
        return false;
    const char* begin = m_text.data() + m_pos;
    const std::size_t left = m_text.size() - m_pos;
    const void* nl = std::memchr(begin, '\n', left);
    std::size_t len = nl ? static_cast<std::size_t>(static_cast<const char*>(nl) - begin) : left;
    m_terminated = nl != nullptr;
    m_pos += len + (nl ? 1 : 0);
    if (len > 0 && begin[len - 1] == '\r')
        --len;
    line = std::string_view(begin, len);
    ++m_number;
    return true;
}

} // namespace ckpt
