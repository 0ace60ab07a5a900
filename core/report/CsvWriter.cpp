#include "report/CsvWriter.h"

#include "history/NumberText.h"

namespace ckpt {

std::string CsvWriter::field(std::string_view text)
{
    if (text.find_first_of(",\"\n\r") == std::string_view::npos)
        return std::string(text);
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string CsvWriter::number(std::optional<double> value)
{
    return value ? NumberText::format(*value) : std::string();
}

void CsvWriter::addRow(const std::vector<std::string>& fields)
{
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (i > 0)
            m_text += ',';
        m_text += field(fields[i]);
    }
    m_text += '\n';
}

} // namespace ckpt
