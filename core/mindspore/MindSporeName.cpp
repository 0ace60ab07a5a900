#include "mindspore/MindSporeName.h"

#include "layout/DirReader.h"

namespace ckpt {

namespace {

bool endsWith(std::string_view s, std::string_view tail)
{
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

template <typename T> std::optional<T> number(std::string_view digits, std::size_t maxDigits)
{
    if (!DirReader::isDigits(digits) || digits.size() > maxDigits)
        return std::nullopt;
    T n = 0;
    for (char c : digits)
        n = static_cast<T>(n * 10 + (c - '0'));
    return n;
}

} // namespace

std::optional<MindSporeName> MindSporeName::parse(std::string_view name)
{
    if (name.empty() || name.front() == '.')
        return std::nullopt;
    MindSporeName out;
    if (endsWith(name, "-graph.meta")) {
        out.kind = Kind::GraphMeta;
        out.prefix = std::string(name.substr(0, name.size() - 11));
        if (out.prefix.empty())
            return std::nullopt;
        return out;
    }
    bool tmp = false;
    if (endsWith(name, ".tmp")) {
        tmp = true;
        name.remove_suffix(4);
        if (endsWith(name, ".ckpt"))
            name.remove_suffix(5);
    } else if (endsWith(name, ".ckpt")) {
        name.remove_suffix(5);
    } else {
        return std::nullopt;
    }
    if (endsWith(name, "_breakpoint")) {
        out.kind = Kind::Breakpoint;
        name.remove_suffix(11);
    }
    const auto dash = name.rfind('-');
    if (dash == std::string_view::npos || dash == 0)
        return std::nullopt;
    const std::string_view numbers = name.substr(dash + 1);
    const auto under = numbers.find('_');
    if (under == std::string_view::npos)
        return std::nullopt;
    const auto epoch = number<int>(numbers.substr(0, under), 9);
    const auto step = number<std::int64_t>(numbers.substr(under + 1), 18);
    if (!epoch || !step)
        return std::nullopt;
    out.prefix = std::string(name.substr(0, dash));
    out.epoch = *epoch;
    out.step = *step;
    if (tmp) {
        out.tmpOf = out.kind;
        out.kind = Kind::Tmp;
    }
    return out;
}

std::pair<std::string, int> MindSporeName::runOf(const std::string& prefix)
{
    const auto under = prefix.rfind('_');
    if (under == std::string::npos || under == 0)
        return {prefix, 0};
    if (const auto n = number<int>(std::string_view(prefix).substr(under + 1), 6); n && *n > 0)
        return {prefix.substr(0, under), *n};
    return {prefix, 0};
}

} // namespace ckpt
