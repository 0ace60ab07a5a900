#include "config/ConfigWriter.h"

#include "common/SingleQuoted.h"
#include "config/AsciiLower.h"
#include "io/AtomicFile.h"
#include "json/PythonRepr.h"

#include <QDateTime>

#include <algorithm>
#include <cerrno>
#include <regex>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

Result<ParamEdit> ParamEdit::parse(std::string_view keyEqualsValue)
{
    const auto eq = keyEqualsValue.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return Error::at({}, singleQuoted(keyEqualsValue) + " is not KEY=VALUE");
    std::string key(keyEqualsValue.substr(0, eq));
    while (!key.empty() && key.back() == ' ')
        key.pop_back();
    const std::string_view word = keyEqualsValue.substr(eq + 1);
    auto literal = HyperValue::parseLiteral(word);
    if (literal)
        return ParamEdit{asciiLower(key), std::move(*literal), true};
    return ParamEdit{asciiLower(key), HyperValue::fromString(std::string(word)), false};
}

Status ParamEdit::checkType(const HyperValue* old) const
{
    using Kind = HyperValue::Kind;
    if (!old || literal || value.kind() != Kind::String)
        return {};
    switch (old->kind()) {
    case Kind::String:
        return {};
    case Kind::Bool:
        if (value.toBool())
            return {}; // yes/no/true/false, as CANDLE's str2bool reads them
        break;
    default:
        break;
    }
    const std::string word = value.toString();
    return Error::at({}, key + ": '" + word + "' is not a " +
                             (old->kind() == Kind::List   ? "list"
                              : old->kind() == Kind::Bool ? "bool"
                              : old->kind() == Kind::Null ? "value (the run has None)"
                                                          : "number") +
                             " like the run's " + old->pythonLiteral() +
                             " (a typo?); to make it a string, quote it: " + key + "=\"'" + word +
                             "'\"");
}

Result<std::vector<ParamEdit>> ParamEdit::parseSweep(std::string_view keyEqualsValues)
{
    const auto eq = keyEqualsValues.find('=');
    if (eq == std::string_view::npos || eq == 0)
        return Error::at({}, singleQuoted(keyEqualsValues) + " is not KEY=V1,V2,...");
    const std::string_view key = keyEqualsValues.substr(0, eq);
    const std::string_view values = keyEqualsValues.substr(eq + 1);
    std::vector<ParamEdit> out;
    int depth = 0;
    char quote = 0;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= values.size(); ++i) {
        const char c = i < values.size() ? values[i] : ',';
        if (quote) {
            quote = c == quote ? 0 : quote;
            continue;
        }
        if (c == '\'' || c == '"')
            quote = c;
        else if (c == '[' || c == '(' || c == '{')
            ++depth;
        else if ((c == ']' || c == ')' || c == '}') && depth > 0)
            --depth;
        else if (c == ',' && depth == 0) {
            const std::string_view value = values.substr(start, i - start);
            if (value.empty())
                return Error::at({}, singleQuoted(keyEqualsValues) + " has an empty value");
            auto edit = parse(std::string(key) + "=" + std::string(value));
            if (!edit)
                return edit.error();
            out.push_back(std::move(*edit));
            start = i + 1;
        }
    }
    return out;
}

namespace {

// Sets `key` in a JSON parameter document where it already is (top level or a
// section, matched case-insensitively), else at the top level.
void setJsonKey(nlohmann::ordered_json& doc, const std::string& key, nlohmann::ordered_json value)
{
    for (auto& [name, item] : doc.items()) {
        if (asciiLower(name) == key && !item.is_object()) {
            item = std::move(value);
            return;
        }
    }
    for (auto& [name, item] : doc.items()) {
        if (!item.is_object())
            continue;
        for (auto& [inner, v] : item.items())
            if (asciiLower(inner) == key) {
                v = std::move(value);
                return;
            }
    }
    doc[key] = std::move(value);
}

// The key of a top-level YAML mapping line (`key: value`, `'key': value`),
// lower-cased; empty for anything else (indented, a comment, a list item).
std::string yamlTopKey(std::string_view line)
{
    if (line.empty() || line[0] == ' ' || line[0] == '\t' || line[0] == '#' || line[0] == '-')
        return {};
    std::size_t end = 0;
    std::string_view key;
    if (line[0] == '\'' || line[0] == '"') {
        end = line.find(line[0], 1);
        if (end == std::string_view::npos)
            return {};
        key = line.substr(1, end - 1);
        ++end;
    } else {
        end = line.find(':');
        if (end == std::string_view::npos)
            return {};
        key = line.substr(0, end);
        while (!key.empty() && key.back() == ' ')
            key.remove_suffix(1);
    }
    const std::size_t colon = line.find(':', end);
    if (colon == std::string_view::npos ||
        line.substr(end, colon - end).find_first_not_of(' ') != std::string_view::npos)
        return {};
    if (colon + 1 < line.size() && line[colon + 1] != ' ' && line[colon + 1] != '\n' &&
        line[colon + 1] != '\r')
        return {};
    return asciiLower(std::string(key));
}

// A top-level YAML file edited in place: an edited key's line gets the new
// value (JSON's flow form, which YAML reads as such) and loses the block below
// it, if any; every other line, comment and the order stay. New keys go to the
// end. (A YAML library would drop the comments.)
std::string renderYaml(const std::string& text, const std::vector<ParamEdit>& edits)
{
    std::vector<std::string> lines;
    for (std::size_t pos = 0; pos < text.size();) {
        std::size_t end = text.find('\n', pos);
        end = end == std::string::npos ? text.size() : end + 1;
        lines.emplace_back(text, pos, end - pos);
        pos = end;
    }
    if (!lines.empty() && !lines.back().ends_with('\n'))
        lines.back() += '\n';
    for (const ParamEdit& e : edits) {
        const std::string value = ParamSet::toJson(e.value).dump();
        auto it = std::find_if(lines.begin(), lines.end(),
                               [&](const std::string& l) { return yamlTopKey(l) == e.key; });
        if (it == lines.end()) {
            lines.push_back(e.key + ": " + value + "\n");
            continue;
        }
        std::string& line = *it;
        line =
            line.substr(
                0, line.find(':', line[0] == '\'' || line[0] == '"' ? line.find(line[0], 1) : 0)) +
            ": " + value + "\n";
        // The old value's block (indented lines, a sequence's items) goes.
        auto next = it + 1;
        auto stop = next;
        while (stop != lines.end() && !stop->empty() &&
               ((*stop)[0] == ' ' || (*stop)[0] == '\t' || (*stop)[0] == '-'))
            ++stop;
        lines.erase(next, stop);
    }
    std::string out;
    for (const std::string& l : lines)
        out += l;
    return out;
}

} // namespace

Result<std::string> ConfigWriter::render(const ParamSet& original,
                                         const std::vector<ParamEdit>& edits)
{
    if (original.format() == ParamSet::Format::Json) {
        nlohmann::ordered_json doc = original.json();
        if (!doc.is_object())
            doc = nlohmann::ordered_json::object();
        for (const ParamEdit& e : edits)
            setJsonKey(doc, e.key, ParamSet::toJson(e.value));
        return PythonRepr::dumpJson(doc, 4) + "\n";
    }
    if (original.format() == ParamSet::Format::Yaml)
        return renderYaml(original.yamlText(), edits);
    if (!original.ini())
        return Error::at(original.origin(), "no INI text to edit");
    HyperParams params;
    for (const ParamEdit& e : edits)
        params.set(e.key, e.value, HyperParams::Source::CommandLine);
    return original.ini()->renderWith(params);
}

fs::path ConfigWriter::firstChoice(const ParamSet& original, const fs::path& dir)
{
    const fs::path source =
        original.origin().empty() ? fs::path("params.ini") : fs::path(original.origin());
    std::string ext = source.extension().string();
    if (ext.empty())
        ext = original.format() == ParamSet::Format::Json ? ".json" : ".ini";
    // An edited copy of an edited copy keeps one stamp: spirals-20261123-151733-2 -> spirals.
    static const std::regex kStamped(R"((.*)-\d{8}-\d{6}(-\d+)?)");
    std::string stem = source.stem().string();
    if (std::smatch m; std::regex_match(stem, m, kStamped))
        stem = m[1].str();
    return dir /
           (stem + "-" +
            QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")).toStdString() +
            ext);
}

Result<fs::path> ConfigWriter::writeNew(const ParamSet& original,
                                        const std::vector<ParamEdit>& edits, const fs::path& dir,
                                        const fs::path& preferred)
{
    auto text = render(original, edits);
    if (!text)
        return text.error();
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec)
        return Error::at(dir.string(), "cannot create the folder: " + ec.message());

    const fs::path first = !preferred.empty() && preferred.parent_path() == dir
                               ? preferred
                               : firstChoice(original, dir);
    const std::string stem = first.stem().string();
    const std::string ext = first.extension().string();
    const fs::path source =
        original.origin().empty() ? fs::path("params.ini") : fs::path(original.origin());

    const fs::path aside = dir / ("." + stem + ext + ".new");
    if (Status st = writeFileAtomically(aside, *text); !st) {
        // Named as the file the user will look for, not our name aside.
        std::string message = st.error().message;
        if (const auto at = message.find(aside.string()); at != std::string::npos)
            message.replace(at, aside.string().size(), first.string());
        return Error{message, first.string()};
    }
    for (int n = 1; n < 1000; ++n) {
        const fs::path target = dir / (n == 1 ? stem + ext : stem + "-" + std::to_string(n) + ext);
        if (::link(aside.c_str(), target.c_str()) == 0) {
            ::unlink(aside.c_str());
            return target;
        }
        if (errno != EEXIST) {
            const int err = errno;
            ::unlink(aside.c_str());
            return Error{"cannot create " + osError(target, err), target.string()};
        }
    }
    ::unlink(aside.c_str());
    return Error::at(dir.string(), "no free name for the edited copy of " + source.string());
}

} // namespace ckpt
