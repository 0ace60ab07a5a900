#include "config/IniConfig.h"

#include "common/SingleQuoted.h"
#include "config/AsciiLower.h"
#include "config/HyperParams.h"
#include "io/AtomicFile.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace ckpt {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string> splitLines(std::string_view text)
{
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string line(text.substr(start, end - start));
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        lines.push_back(std::move(line));
        start = end + 1;
    }
    return lines;
}

bool isSectionHeader(std::string_view line)
{
    const auto t = trim(line);
    return t.size() >= 2 && t.front() == '[' && t.back() == ']' && line.front() == '[';
}

// Where the value starts on a key line: after the separator and its spaces.
std::size_t valueColumn(std::string_view line)
{
    const std::size_t sep = line.find_first_of("=:");
    std::size_t pos = sep + 1;
    while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t'))
        ++pos;
    return pos;
}

} // namespace

Result<IniConfig> IniConfig::readFile(const std::filesystem::path& path)
{
    auto text = ckpt::readFile(path, RegularFile::kMetadataLimit);
    if (!text)
        return text.error();
    return parse(text.value(), path.string());
}

Result<IniConfig> IniConfig::parse(std::string_view text, std::string origin)
{
    IniConfig config;
    config.m_origin = origin;
    config.m_lines = splitLines(text);
    // "file:line: what", with the file also in Error::path.
    auto lineError = [&](int line, const std::string& what) {
        return Error{origin + ":" + std::to_string(line) + ": " + what, origin};
    };

    std::string section;
    bool haveSection = false;
    Entry* open = nullptr; // the entry a continuation line extends
    for (std::size_t i = 0; i < config.m_lines.size(); ++i) {
        const std::string& raw = config.m_lines[i];
        const int lineNo = static_cast<int>(i) + 1;
        const auto t = trim(raw);
        if (t.empty()) {
            open = nullptr;
            continue;
        }
        if (t.front() == '#' || t.front() == ';')
            continue;
        if (std::isspace(static_cast<unsigned char>(raw.front())) && open) {
            open->text += '\n';
            open->text += t;
            continue;
        }
        if (isSectionHeader(raw)) {
            section = std::string(trim(t.substr(1, t.size() - 2)));
            haveSection = true;
            open = nullptr;
            continue;
        }
        const std::size_t sep = raw.find_first_of("=:");
        if (sep == std::string::npos)
            return lineError(lineNo, "expected 'key = value', got '" + std::string(t) + "'");
        if (!haveSection)
            return lineError(lineNo, singleQuoted(t) + " comes before any [section] header");
        const std::string key = asciiLower(trim(std::string_view(raw).substr(0, sep)));
        if (key.empty())
            return lineError(lineNo, "empty key");
        Entry e;
        e.section = section;
        e.key = key;
        e.text = std::string(trim(std::string_view(raw).substr(sep + 1)));
        e.line = lineNo;
        config.m_entries.push_back(std::move(e));
        open = &config.m_entries.back();
    }

    std::map<std::string, bool> seen;
    for (Entry& e : config.m_entries) {
        auto v = HyperValue::parseLiteral(e.text);
        if (!v)
            return lineError(e.line, "value of '" + e.key +
                                         "' is not a Python literal: " + v.error().message);
        e.value = std::move(v.value());
        e.shadowed = seen[e.key];
        seen[e.key] = true;
    }
    return config;
}

std::vector<std::string> IniConfig::sections() const
{
    std::vector<std::string> out;
    for (const std::string& line : m_lines)
        if (!line.empty() && isSectionHeader(line)) {
            const auto t = trim(line);
            out.emplace_back(trim(t.substr(1, t.size() - 2)));
        }
    return out;
}

const IniConfig::Entry* IniConfig::find(std::string_view key) const
{
    const std::string k = asciiLower(key);
    for (const Entry& e : m_entries)
        if (e.key == k)
            return &e;
    return nullptr;
}

std::string IniConfig::renderWith(const HyperParams& params) const
{
    std::vector<std::string> lines = m_lines;
    std::vector<bool> dropped(lines.size(), false);
    std::vector<std::string> added;

    for (const HyperParams::Item& item : params.items()) {
        if (item.source == HyperParams::Source::Default)
            continue;
        const Entry* e = find(item.name);
        if (!e) {
            added.push_back(item.name + " = " + item.value.pythonLiteral());
            continue;
        }
        if (e->value == item.value)
            continue;
        auto idx = static_cast<std::size_t>(e->line - 1);
        std::string& line = lines[idx];
        line = line.substr(0, valueColumn(line)) + item.value.pythonLiteral();
        // A rewritten value is one line: drop its continuation lines.
        for (std::size_t j = idx + 1; j < lines.size(); ++j) {
            const std::string& next = m_lines[j];
            if (trim(next).empty() || !std::isspace(static_cast<unsigned char>(next.front())))
                break;
            dropped[j] = true;
        }
    }

    // New keys go to the end of the first section, before its trailing blank lines.
    std::size_t insertAt = lines.size();
    bool haveSection = false;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].empty() && isSectionHeader(lines[i])) {
            if (haveSection) {
                insertAt = i;
                break;
            }
            haveSection = true;
        }
    }
    while (insertAt > 0 && trim(lines[insertAt - 1]).empty())
        --insertAt;

    std::string out;
    auto emit = [&out](const std::string& l) {
        out += l;
        out += '\n';
    };
    if (!haveSection && !added.empty())
        emit("[Global_Params]");
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (i == insertAt)
            for (const std::string& a : added)
                emit(a);
        if (!dropped[i])
            emit(lines[i]);
    }
    if (insertAt >= lines.size())
        for (const std::string& a : added)
            emit(a);
    return out;
}

Status IniConfig::writeWith(const std::filesystem::path& path, const HyperParams& params) const
{
    return writeFileAtomically(path, renderWith(params));
}

} // namespace ckpt
