#include "launch/CommandTemplate.h"

#include <algorithm>
#include <cctype>

namespace ckpt {

namespace {

// One pass over the template: words split outside quotes, placeholders
// replaced by `lookup` (which may fail). In shell mode nothing is split:
// the whole text is one word and values are shell-quoted.
// `keepBraces`: a literal brace stays doubled (the words are a template still).
template <typename Lookup>
Result<std::vector<std::string>> walk(std::string_view text, bool shell, Lookup&& lookup,
                                      bool keepBraces = false)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    char quote = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '{' || c == '}') {
            if (i + 1 < text.size() && text[i + 1] == c) {
                word += c;
                if (keepBraces)
                    word += c;
                inWord = true;
                ++i;
                continue;
            }
            if (c == '}')
                return Error::at({}, "unmatched '}' at column " + std::to_string(i + 1) +
                                         " of the command template (write '}}' for a brace)");
            const std::size_t close = text.find('}', i);
            if (close == std::string_view::npos)
                return Error::at({}, "unterminated '{' at column " + std::to_string(i + 1) +
                                         " of the command template");
            const std::string name(text.substr(i + 1, close - i - 1));
            if (name.empty() || !std::all_of(name.begin(), name.end(), [](char ch) {
                    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_';
                }))
                return Error::at({}, "'{" + name + "}' is not a placeholder name");
            auto value = lookup(name);
            if (!value)
                return value.error();
            word += shell ? CommandTemplate::shellQuote(*value) : *value;
            inWord = true;
            i = close;
            continue;
        }
        if (shell) {
            word += c;
            inWord = true;
            continue;
        }
        if (quote) {
            if (c == quote)
                quote = 0;
            else if (c == '\\' && quote == '"' && i + 1 < text.size() &&
                     (text[i + 1] == '"' || text[i + 1] == '\\'))
                word += text[++i];
            else
                word += c;
            continue;
        }
        if (c == '\'' || c == '"') {
            quote = c;
            inWord = true;
        } else if (c == '\\' && i + 1 < text.size()) {
            word += text[++i];
            inWord = true;
        } else if (std::isspace(static_cast<unsigned char>(c))) {
            if (inWord)
                words.push_back(std::move(word));
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (quote)
        return Error::at({}, std::string("unbalanced ") + quote + " in the command template");
    if (inWord)
        words.push_back(std::move(word));
    return words;
}

} // namespace

bool CommandTemplate::usesShell() const
{
    return m_text.rfind(kShellPrefix, 0) == 0;
}

Result<std::vector<std::string>> CommandTemplate::placeholders() const
{
    std::vector<std::string> names;
    std::string_view body = m_text;
    if (usesShell())
        body.remove_prefix(kShellPrefix.size());
    auto walked = walk(body, usesShell(), [&names](const std::string& name) -> Result<std::string> {
        if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(name);
        return std::string();
    });
    if (!walked)
        return walked.error();
    return names;
}

Result<std::vector<std::string>> CommandTemplate::words() const
{
    if (usesShell())
        return std::vector<std::string>{m_text};
    return walk(
        m_text, false,
        [](const std::string& name) -> Result<std::string> { return "{" + name + "}"; }, true);
}

Result<std::vector<std::string>>
CommandTemplate::expand(const std::map<std::string, std::string>& values) const
{
    auto names = placeholders();
    if (!names)
        return names.error();
    std::string missing;
    for (const std::string& n : *names)
        if (!values.count(n))
            missing += (missing.empty() ? "{" : ", {") + n + "}";
    if (!missing.empty())
        return Error::at({}, "no value for " + missing + " in the command template");
    std::string_view body = m_text;
    const bool shell = usesShell();
    if (shell)
        body.remove_prefix(kShellPrefix.size());
    auto words = walk(body, shell, [&values](const std::string& name) -> Result<std::string> {
        return values.at(name);
    });
    if (!words)
        return words.error();
    if (shell) {
        std::string command = words->empty() ? std::string() : words->front();
        const auto first = command.find_first_not_of(" \t");
        if (first == std::string::npos)
            return Error::at({}, "the command template is empty");
        return std::vector<std::string>{"/bin/sh", "-c", command.substr(first)};
    }
    if (words->empty())
        return Error::at({}, "the command template is empty");
    return words;
}

std::map<std::string, std::string> CommandTemplate::valuesFrom(const HyperParams& params)
{
    std::map<std::string, std::string> values;
    for (const HyperParams::Item& item : params.items())
        values[item.name] = item.value.toString();
    return values;
}

std::string CommandTemplate::shellQuote(std::string_view text)
{
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) ||
               std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
    });
    if (plain)
        return std::string(text);
    std::string out = "'";
    for (char c : text) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

std::string CommandTemplate::displayArgv(const std::vector<std::string>& argv)
{
    std::string out;
    for (const std::string& a : argv) {
        if (!out.empty())
            out += ' ';
        out += shellQuote(a);
    }
    return out;
}

} // namespace ckpt
