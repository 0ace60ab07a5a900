#include "config/ParamSet.h"

#include "config/AsciiLower.h"
#include "io/AtomicFile.h"
#include "json/LenientJson.h"
#include "lightning/LightningHparams.h"

#include <algorithm>
#include <cctype>

namespace ckpt {

namespace {

bool looksLikeJson(std::string_view text)
{
    for (char c : text) {
        if (std::isspace(static_cast<unsigned char>(c)))
            continue;
        return c == '{';
    }
    return false;
}

// The 1-based line of the first `"key"` at or after `from`; `from` moves past it.
int lineOfKey(std::string_view text, const std::string& key, std::size_t& from)
{
    const std::string quoted = "\"" + key + "\"";
    const std::size_t at = text.find(quoted, from);
    if (at == std::string_view::npos)
        return 0;
    from = at + quoted.size();
    return 1 +
           static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
}

Result<HyperValue> fromJson(const nlohmann::ordered_json& j)
{
    switch (j.type()) {
    case nlohmann::json::value_t::null:
        return HyperValue::null();
    case nlohmann::json::value_t::boolean:
        return HyperValue::fromBool(j.get<bool>());
    case nlohmann::json::value_t::number_integer:
        return HyperValue::fromInt(j.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(INT64_MAX))
            return HyperValue::fromDouble(static_cast<double>(u));
        return HyperValue::fromInt(static_cast<std::int64_t>(u));
    }
    case nlohmann::json::value_t::number_float:
        return HyperValue::fromDouble(j.get<double>());
    case nlohmann::json::value_t::string:
        return HyperValue::fromString(j.get<std::string>());
    case nlohmann::json::value_t::array: {
        HyperValue::List items;
        for (const auto& item : j) {
            auto v = fromJson(item);
            if (!v)
                return v;
            items.push_back(std::move(v.value()));
        }
        return HyperValue::fromList(std::move(items));
    }
    default:
        return Error::at({}, "a nested object is not a parameter value");
    }
}

} // namespace

Result<ParamSet> ParamSet::readFile(const std::filesystem::path& path)
{
    auto text = ckpt::readFile(path);
    if (!text)
        return text.error();
    const std::string ext = asciiLower(path.extension().string());
    if (ext == ".json")
        return parseJson(*text, path.string());
    if (ext == ".yaml" || ext == ".yml")
        return parseYaml(*text, path.string());
    return parse(*text, path.string());
}

Result<ParamSet> ParamSet::parse(std::string_view text, std::string origin)
{
    const std::string ext = asciiLower(std::filesystem::path(origin).extension().string());
    if (ext == ".yaml" || ext == ".yml")
        return parseYaml(std::string(text), std::move(origin));
    if (looksLikeJson(text))
        return parseJson(text, std::move(origin));
    auto ini = IniConfig::parse(text, origin);
    if (!ini)
        return ini.error();
    return fromIni(std::move(ini.value()), std::move(origin));
}

ParamSet ParamSet::fromIni(IniConfig config, std::string origin)
{
    ParamSet set;
    set.m_format = Format::Ini;
    set.m_origin = std::move(origin);
    for (const IniConfig::Entry& e : config.entries())
        if (!e.shadowed)
            set.m_params.push_back(Param{e.section, e.key, e.value, e.line});
    set.m_ini = std::move(config);
    return set;
}

Result<ParamSet> ParamSet::parseJson(std::string_view text, std::string origin)
{
    auto doc = LenientJson::parse(text, origin);
    if (!doc)
        return doc.error();
    if (!doc->is_object())
        return Error::at(origin, "a JSON parameter file must hold an object ({\"key\": value})");
    ParamSet set;
    set.m_format = Format::Json;
    set.m_origin = origin;
    std::size_t cursor = 0;
    auto add = [&](const std::string& section, const std::string& key,
                   const nlohmann::ordered_json& value) -> Status {
        const int line = lineOfKey(text, key, cursor);
        auto v = fromJson(value);
        if (!v)
            return Error{origin + ":" + std::to_string(line) + ": value of '" + key +
                             "' is not a parameter value: " + v.error().message,
                         origin};
        if (!set.find(key))
            set.m_params.push_back(Param{section, asciiLower(key), std::move(v.value()), line});
        return {};
    };
    for (const auto& [name, value] : doc->items()) {
        if (value.is_object()) {
            (void)lineOfKey(text, name, cursor);
            for (const auto& [key, inner] : value.items())
                if (Status st = add(name, key, inner); !st)
                    return st.error();
            continue;
        }
        if (Status st = add({}, name, value); !st)
            return st.error();
    }
    set.m_json = std::move(doc.value());
    return set;
}

ParamSet ParamSet::parseYaml(const std::string& text, std::string origin)
{
    LightningHparams::Parsed parsed = LightningHparams::parse(text, origin);
    ParamSet set;
    set.m_format = Format::Yaml;
    set.m_origin = std::move(origin);
    set.m_yamlText = text;
    for (const auto& [key, json] : parsed.values) {
        const std::string k(key);
        auto doc = LenientJson::parse(json, set.m_origin);
        auto v = doc ? fromJson(*doc) : Result<HyperValue>(doc.error());
        if (!v) {
            set.m_notes.push_back(set.m_origin + ": " + k + ": not read");
            continue;
        }
        if (!set.find(k))
            set.m_params.push_back(
                Param{{}, asciiLower(k), std::move(v.value()), parsed.lineOf(k)});
    }
    set.m_notes.insert(set.m_notes.end(), parsed.notes.begin(), parsed.notes.end());
    return set;
}

std::string_view ParamSet::formatName() const
{
    switch (m_format) {
    case Format::Json:
        return "json";
    case Format::Yaml:
        return "yaml";
    case Format::Ini:
        break;
    }
    return "ini";
}

const ParamSet::Param* ParamSet::find(std::string_view key) const
{
    const std::string k = asciiLower(key);
    for (const Param& p : m_params)
        if (p.key == k)
            return &p;
    return nullptr;
}

std::vector<std::string> ParamSet::sections() const
{
    std::vector<std::string> out;
    for (const Param& p : m_params)
        if (std::find(out.begin(), out.end(), p.section) == out.end())
            out.push_back(p.section);
    return out;
}

HyperParams ParamSet::toHyperParams() const
{
    HyperParams params;
    for (const Param& p : m_params)
        params.set(p.key, p.value, HyperParams::Source::ConfigFile);
    return params;
}

nlohmann::ordered_json ParamSet::toJson(const HyperValue& value)
{
    switch (value.kind()) {
    case HyperValue::Kind::Null:
        return nullptr;
    case HyperValue::Kind::Bool:
        return *value.toBool();
    case HyperValue::Kind::Int:
        return *value.toInt();
    case HyperValue::Kind::Double:
        return *value.toDouble();
    case HyperValue::Kind::String:
        return value.toString();
    case HyperValue::Kind::List: {
        auto arr = nlohmann::ordered_json::array();
        if (const HyperValue::List* items = value.list())
            for (const HyperValue& item : *items)
                arr.push_back(toJson(item));
        return arr;
    }
    }
    return nullptr;
}

} // namespace ckpt
