#include "config/ConfigWriter.h"

#include "common/SingleQuoted.h"
#include "config/AsciiLower.h"
#include "io/AtomicFile.h"
#include "json/PythonRepr.h"

#include <QDateTime>

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
    return ParamEdit{asciiLower(key), HyperValue::fromWord(keyEqualsValue.substr(eq + 1))};
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
        return Error::at(original.origin(), "editing a YAML parameter file is not supported: "
                                            "name an INI or JSON file for the run (--config)");
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
