#pragma once

#include "common/Result.h"
#include "config/HyperParams.h"
#include "config/HyperValue.h"
#include "config/IniConfig.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// A run's parameter file, whatever its format: a CANDLE INI file (through
// IniConfig), a JSON object, flat ({"epochs": 10}) or one level of sections
// ({"Global_Params": {"epochs": 10}}), or Lightning's hparams.yaml (top-level
// scalars through LightningHparams; what it cannot read is listed in notes()). Keys are lower-cased
// as CANDLE does; the first occurrence of a key wins. The original text is kept so that an edited
// copy can be written with its comments and order (ConfigWriter).
class ParamSet
{
public:
    enum class Format
    {
        Ini,
        Json,
        Yaml // Lightning's hparams.yaml: top-level scalars, read-only
    };

    struct Param
    {
        std::string section; // "" for a flat JSON file
        std::string key;     // lower-cased
        HyperValue value;
        int line = 0; // 1-based line of the key in the file, 0 when unknown
    };

    ParamSet() = default;

    // JSON when the extension is .json or the first non-blank character is '{',
    // YAML when it is .yaml or .yml, INI otherwise. Errors name the file, the line and the key.
    static Result<ParamSet> readFile(const std::filesystem::path& path);
    static Result<ParamSet> parse(std::string_view text, std::string origin);
    static ParamSet fromIni(IniConfig config, std::string origin);
    static Result<ParamSet> parseJson(std::string_view text, std::string origin);
    static ParamSet parseYaml(const std::string& text, std::string origin);

    Format format() const { return m_format; }
    // The file the set was read from (or the origin given to parse()).
    const std::string& origin() const { return m_origin; }
    const std::vector<Param>& params() const { return m_params; }
    const Param* find(std::string_view key) const;
    // Values that were not read ("<file>:<line>: key holds a nested value: not read").
    const std::vector<std::string>& notes() const { return m_notes; }
    // "ini", "json", "yaml"
    std::string_view formatName() const;
    // Sections in file order ("" for top-level JSON keys).
    std::vector<std::string> sections() const;

    // Every parameter as Source::ConfigFile, for templates and launch plans.
    HyperParams toHyperParams() const;

    // For ConfigWriter: the parsed INI (Format::Ini), JSON document (Format::Json)
    // or YAML text (Format::Yaml).
    const std::optional<IniConfig>& ini() const { return m_ini; }
    const std::string& yamlText() const { return m_yamlText; }
    const nlohmann::ordered_json& json() const { return m_json; }

    static nlohmann::ordered_json toJson(const HyperValue& value);

private:
    Format m_format = Format::Ini;
    std::string m_origin;
    std::vector<Param> m_params;
    std::vector<std::string> m_notes;
    std::optional<IniConfig> m_ini;
    nlohmann::ordered_json m_json;
    std::string m_yamlText;
};

} // namespace ckpt
