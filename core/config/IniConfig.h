#pragma once

#include "common/Result.h"
#include "config/HyperValue.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

class HyperParams;

// A CANDLE hyperparameter file: INI sections ([Global_Params] and others),
// `key = value` or `key: value`, keys lower-cased as configparser does, values
// Python literals. All sections are merged; the first occurrence of a key wins.
// The original lines are kept so that a file can be written back with its
// comments, order and formatting, only changed values rewritten.
class IniConfig
{
public:
    struct Entry
    {
        std::string section;
        std::string key;  // lower-cased
        std::string text; // the value as written (continuation lines joined by '\n')
        HyperValue value;
        int line = 0;          // 1-based line of the key
        bool shadowed = false; // an earlier entry has the same key
    };

    IniConfig() = default;

    static Result<IniConfig> readFile(const std::filesystem::path& path);
    // `origin` names the text in messages ("file.ini:12: ...").
    static Result<IniConfig> parse(std::string_view text, std::string origin);

    const std::vector<Entry>& entries() const { return m_entries; }
    std::vector<std::string> sections() const;
    // The winning entry for `key` (first one), or nullptr.
    const Entry* find(std::string_view key) const;

    // The file's text with every non-default parameter of `params` applied:
    // keys present in the file get their value rewritten in place (only when
    // it changed, so untouched lines stay byte-identical); new keys are
    // appended to the first section ([Global_Params] when the file is empty).
    std::string renderWith(const HyperParams& params) const;
    // renderWith() written atomically to `path` (AtomicFile).
    Status writeWith(const std::filesystem::path& path, const HyperParams& params) const;

private:
    std::string m_origin;
    std::vector<std::string> m_lines;
    std::vector<Entry> m_entries;
};

} // namespace ckpt
