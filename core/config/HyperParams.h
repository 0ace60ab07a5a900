#pragma once

#include "common/Result.h"
#include "config/HyperValue.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ckpt {

class IniConfig;

// CANDLE's gParameters: an ordered map name -> value where each value remembers
// where it came from. Precedence: command line over config file over defaults;
// a lower source never replaces a higher one.
class HyperParams
{
public:
    enum class Source
    {
        Default = 0,
        ConfigFile = 1,
        CommandLine = 2
    };

    struct Item
    {
        std::string name;
        HyperValue value;
        Source source = Source::Default;
    };

    // Sets `name` unless it already holds a value from a higher source.
    // Names are lower-cased, as configparser and CANDLE's argparse keys are.
    void set(std::string_view name, HyperValue value, Source source);
    void setDefault(std::string_view name, HyperValue value)
    {
        set(name, std::move(value), Source::Default);
    }

    // Every merged entry of the file, as Source::ConfigFile.
    void applyConfig(const IniConfig& config);

    // Parses `--key value`, `--key=value` and a bare `--flag` (True). Words
    // that are not options are returned in order (positional arguments).
    // `--key` followed by another option or the end is a flag.
    Result<std::vector<std::string>> applyCommandLine(const std::vector<std::string>& args);

    bool contains(std::string_view name) const { return find(name) != nullptr; }
    const Item* find(std::string_view name) const;
    const HyperValue* value(std::string_view name) const;
    const std::vector<Item>& items() const { return m_items; }

    // Typed look-ups: the fallback when the key is absent or None; an Error
    // naming the parameter when the value does not convert.
    Result<bool> getBool(std::string_view name, bool fallback) const;
    Result<std::int64_t> getInt(std::string_view name, std::int64_t fallback) const;
    Result<double> getDouble(std::string_view name, double fallback) const;
    std::string getString(std::string_view name, std::string fallback) const;
    // nullopt when absent or None.
    std::optional<std::string> getOptionalString(std::string_view name) const;
    std::optional<double> getOptionalDouble(std::string_view name) const;

private:
    std::vector<Item> m_items;
};

} // namespace ckpt
