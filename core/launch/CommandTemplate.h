#pragma once

#include "common/Result.h"
#include "config/HyperParams.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// A command line with placeholders: {config}, {ckpt_directory}, {output_dir},
// {epochs} and any {parameter}; `{{` and `}}` are literal braces. The text is
// split into words as a shell would ('single', "double" quotes, backslash) but
// no shell runs: each word becomes one argv element, a placeholder's value is
// never split or interpreted. Only a template starting with "shell:" runs
// through /bin/sh -c, with every value single-quoted.
class CommandTemplate
{
public:
    static constexpr std::string_view kShellPrefix = "shell:";

    CommandTemplate() = default;
    explicit CommandTemplate(std::string text) : m_text(std::move(text)) {}

    const std::string& text() const { return m_text; }
    bool usesShell() const;

    // Placeholder names in order of appearance (each once); an error for an
    // unterminated '{' or an unbalanced quote.
    Result<std::vector<std::string>> placeholders() const;

    // The template's words, placeholders and literal braces as written: what
    // `ckpt launch ... -- WORDS` takes (a far launch).
    Result<std::vector<std::string>> words() const;

    // The exact argv. Every placeholder must have a value: the error names
    // the missing ones.
    Result<std::vector<std::string>> expand(const std::map<std::string, std::string>& values) const;

    // Every parameter as str(value) (lists in Python form), to be completed
    // with the launch's own placeholders by the caller.
    static std::map<std::string, std::string> valuesFrom(const HyperParams& params);

    // 'text' for /bin/sh (quotes only when needed).
    static std::string shellQuote(std::string_view text);
    // argv as one line a user can paste into a shell.
    static std::string displayArgv(const std::vector<std::string>& argv);

private:
    std::string m_text;
};

} // namespace ckpt
