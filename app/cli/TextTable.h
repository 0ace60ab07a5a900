#pragma once

#include <string>
#include <vector>

namespace ckpt::cli {

// Left/right aligned plain-text columns for human output.
class TextTable
{
public:
    explicit TextTable(std::vector<std::string> header, std::vector<bool> rightAligned = {});

    void addRow(std::vector<std::string> cells);
    std::string render(const std::string& indent = "") const;
    bool empty() const { return m_rows.empty(); }

private:
    std::vector<std::string> m_header;
    std::vector<bool> m_right;
    std::vector<std::vector<std::string>> m_rows;
};

} // namespace ckpt::cli
