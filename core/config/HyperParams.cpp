#include "config/HyperParams.h"

#include "config/AsciiLower.h"
#include "config/IniConfig.h"

#include <algorithm>
#include <cctype>

namespace ckpt {

namespace {

Error badParam(std::string_view name, const Error& e)
{
    return Error::at({}, "parameter '" + std::string(name) + "': " + e.message);
}

} // namespace

void HyperParams::set(std::string_view name, HyperValue value, Source source)
{
    const std::string key = asciiLower(name);
    for (Item& item : m_items) {
        if (item.name == key) {
            if (static_cast<int>(source) >= static_cast<int>(item.source)) {
                item.value = std::move(value);
                item.source = source;
            }
            return;
        }
    }
    m_items.push_back(Item{key, std::move(value), source});
}

void HyperParams::applyConfig(const IniConfig& config)
{
    for (const IniConfig::Entry& e : config.entries())
        if (!e.shadowed)
            set(e.key, e.value, Source::ConfigFile);
}

Result<std::vector<std::string>> HyperParams::applyCommandLine(const std::vector<std::string>& args)
{
    std::vector<std::string> positional;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
            if (a.size() > 1 && a[0] == '-' && !std::isdigit(static_cast<unsigned char>(a[1])))
                return Error::at({}, "unknown option '" + a +
                                         "' (options are --key value or --key=value)");
            positional.push_back(a);
            continue;
        }
        const std::string body = a.substr(2);
        const auto eq = body.find('=');
        if (eq != std::string::npos) {
            if (eq == 0)
                return Error::at({}, "option '" + a + "' has no name");
            set(body.substr(0, eq), HyperValue::fromWord(body.substr(eq + 1)), Source::CommandLine);
            continue;
        }
        const bool hasValue = i + 1 < args.size() &&
                              !(args[i + 1].size() > 2 && args[i + 1].compare(0, 2, "--") == 0);
        if (hasValue) {
            set(body, HyperValue::fromWord(args[i + 1]), Source::CommandLine);
            ++i;
        } else {
            set(body, HyperValue::fromBool(true), Source::CommandLine);
        }
    }
    return positional;
}

const HyperParams::Item* HyperParams::find(std::string_view name) const
{
    const std::string key = asciiLower(name);
    for (const Item& item : m_items)
        if (item.name == key)
            return &item;
    return nullptr;
}

const HyperValue* HyperParams::value(std::string_view name) const
{
    const Item* item = find(name);
    return item ? &item->value : nullptr;
}

Result<bool> HyperParams::getBool(std::string_view name, bool fallback) const
{
    const HyperValue* v = value(name);
    if (!v || v->isNull())
        return fallback;
    auto r = v->toBool();
    if (!r)
        return badParam(name, r.error());
    return r;
}

Result<std::int64_t> HyperParams::getInt(std::string_view name, std::int64_t fallback) const
{
    const HyperValue* v = value(name);
    if (!v || v->isNull())
        return fallback;
    auto r = v->toInt();
    if (!r)
        return badParam(name, r.error());
    return r;
}

Result<double> HyperParams::getDouble(std::string_view name, double fallback) const
{
    const HyperValue* v = value(name);
    if (!v || v->isNull())
        return fallback;
    auto r = v->toDouble();
    if (!r)
        return badParam(name, r.error());
    return r;
}

std::string HyperParams::getString(std::string_view name, std::string fallback) const
{
    const HyperValue* v = value(name);
    if (!v || v->isNull())
        return fallback;
    return v->toString();
}

std::optional<std::string> HyperParams::getOptionalString(std::string_view name) const
{
    const HyperValue* v = value(name);
    if (!v || v->isNull())
        return std::nullopt;
    return v->toString();
}

std::optional<double> HyperParams::getOptionalDouble(std::string_view name) const
{
    const HyperValue* v = value(name);
    if (!v || v->isNull())
        return std::nullopt;
    auto r = v->toDouble();
    return r ? std::optional<double>(r.value()) : std::nullopt;
}

} // namespace ckpt
