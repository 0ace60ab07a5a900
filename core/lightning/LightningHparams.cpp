#include "lightning/LightningHparams.h"

#include "io/RegularFile.h"

#include <charconv>
#include <string_view>

namespace ckpt {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::string quoted(std::string_view s)
{
    std::string out = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        if (static_cast<unsigned char>(c) < 0x20)
            continue;
        out += c;
    }
    return out + "\"";
}

bool isNumber(std::string_view s)
{
    double v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc{} && end == s.data() + s.size() && s.find_first_of("ni") == s.npos;
}

std::string jsonOf(std::string_view v)
{
    if (v.empty() || v == "null" || v == "~")
        return "null";
    if (v == "true" || v == "True")
        return "true";
    if (v == "false" || v == "False")
        return "false";
    if (isNumber(v))
        return std::string(v);
    if (v.size() >= 2 && (v.front() == '\'' || v.front() == '"') && v.back() == v.front())
        return quoted(v.substr(1, v.size() - 2));
    return quoted(v);
}

} // namespace

int LightningHparams::Parsed::lineOf(std::string_view key) const
{
    // The last line wins, as values.set() keeps the last value of a repeated key.
    for (auto it = lines.rbegin(); it != lines.rend(); ++it)
        if (it->first == key)
            return it->second;
    return 0;
}

Result<LightningHparams::Parsed> LightningHparams::read(const std::string& path)
{
    auto text = RegularFile::read(path, RegularFile::kMetadataLimit);
    if (!text)
        return text.error();
    return parse(*text, path);
}

LightningHparams::Parsed LightningHparams::parse(const std::string& text, const std::string& path)
{
    Parsed out;
    int lineNo = 0;
    std::string_view open; // a key whose value is a nested block
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto nl = text.find('\n', pos);
        if (nl == std::string::npos)
            nl = text.size();
        const std::string_view raw(text.data() + pos, nl - pos);
        pos = nl + 1;
        ++lineNo;
        const std::string_view line = trim(raw);
        if (line.empty() || line.front() == '#' || line == "---")
            continue;
        const std::string where = path + ":" + std::to_string(lineNo) + ": ";
        if (raw.front() == ' ' || raw.front() == '\t' || line.front() == '-') {
            if (open.empty())
                out.notes.push_back(where + "indented or list line outside a key: not read");
            continue; // part of the nested value already noted
        }
        open = {};
        if (line.find('\0') != std::string_view::npos) { // YAML allows no NUL
            out.notes.push_back(where + "a NUL byte: not read");
            continue;
        }
        const auto colon = line.find(": ");
        const bool endsWithColon = line.back() == ':';
        if (colon == std::string_view::npos && !endsWithColon) {
            out.notes.push_back(where + "not a `key: value` line: not read");
            continue;
        }
        const std::string_view key =
            trim(line.substr(0, endsWithColon && colon == line.npos ? line.size() - 1 : colon));
        const std::string_view value =
            colon == std::string_view::npos ? std::string_view{} : trim(line.substr(colon + 2));
        if (key.empty()) {
            out.notes.push_back(where + "empty key: not read");
            continue;
        }
        if (value.empty() || value.front() == '!' || value.front() == '{' || value.front() == '[' ||
            value.front() == '|' || value.front() == '>' || value.front() == '&' ||
            value.front() == '*') {
            const bool nested = value.empty();
            out.notes.push_back(where + std::string(key) +
                                (nested ? " holds a nested value" : " has an unsupported value") +
                                ": not read");
            if (nested)
                open = key;
            continue;
        }
        out.values.set(key, jsonOf(value));
        out.lines.emplace_back(std::string(key), lineNo);
    }
    return out;
}

} // namespace ckpt
