#include "history/NumberText.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace ckpt {

std::string_view NumberText::trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

std::optional<double> NumberText::toDouble(std::string_view text)
{
    text = trim(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    if (text.empty())
        return std::nullopt;
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ptr != end)
        return std::nullopt;
    if (ec == std::errc::result_out_of_range) {
        // Keep what Python would read: overflow to +/-inf, underflow to 0.
        const bool negative = text.front() == '-';
        const auto e = text.find_first_of("eE");
        const bool bigExponent = e != std::string_view::npos && text.substr(e + 1).front() != '-';
        if (bigExponent)
            return negative ? -std::numeric_limits<double>::infinity()
                            : std::numeric_limits<double>::infinity();
        return negative ? -0.0 : 0.0;
    }
    if (ec != std::errc())
        return std::nullopt;
    return value;
}

std::optional<int> NumberText::toInt(std::string_view text)
{
    text = trim(text);
    if (!text.empty() && text.front() == '+')
        text.remove_prefix(1);
    int value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec == std::errc() && ptr == end && !text.empty())
        return value;
    const auto d = toDouble(text);
    if (d && std::isfinite(*d) && *d == std::floor(*d) && std::fabs(*d) < 1e9)
        return static_cast<int>(*d);
    return std::nullopt;
}

std::string NumberText::format(double value)
{
    if (std::isnan(value))
        return "nan";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char buf[32];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, value);
    if (ec != std::errc())
        return "nan";
    return std::string(buf, ptr);
}

} // namespace ckpt
