#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// The one CSV dialect of the project (`ckpt history --csv`, the studio's
// table export): RFC 4180 quoting, '\n' line ends, raw values for machines:
// numbers in the shortest text that reads back to the same double ("nan",
// "inf", "-inf"), an empty cell for no value, sizes in bytes, times in seconds.
class CsvWriter
{
public:
    static std::string field(std::string_view text);
    static std::string number(std::optional<double> value);

    void addRow(const std::vector<std::string>& fields);
    const std::string& text() const { return m_text; }

private:
    std::string m_text;
};

} // namespace ckpt
