#include "TextTable.h"

#include <algorithm>

namespace ckpt::cli {

namespace {
// Display width of UTF-8 text: count code points, not bytes.
std::size_t width(const std::string& s)
{
    return static_cast<std::size_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}
} // namespace

TextTable::TextTable(std::vector<std::string> header, std::vector<bool> rightAligned)
    : m_header(std::move(header)), m_right(std::move(rightAligned))
{
    m_right.resize(m_header.size(), false);
}

void TextTable::addRow(std::vector<std::string> cells)
{
    cells.resize(m_header.size());
    m_rows.push_back(std::move(cells));
}

std::string TextTable::render(const std::string& indent) const
{
    std::vector<std::size_t> w(m_header.size());
    for (std::size_t c = 0; c < m_header.size(); ++c) {
        w[c] = width(m_header[c]);
        for (const auto& row : m_rows)
            w[c] = std::max(w[c], width(row[c]));
    }
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        std::string l = indent;
        for (std::size_t c = 0; c < cells.size(); ++c) {
            const std::string pad(w[c] - width(cells[c]), ' ');
            l += m_right[c] ? pad + cells[c] : cells[c] + (c + 1 < cells.size() ? pad : "");
            if (c + 1 < cells.size())
                l += "  ";
        }
        while (!l.empty() && l.back() == ' ')
            l.pop_back();
        out += l + "\n";
    };
    line(m_header);
    for (const auto& row : m_rows)
        line(row);
    return out;
}

} // namespace ckpt::cli
