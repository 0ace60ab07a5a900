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
    // Shortest digits that read back, laid out as Python's repr() does: plain
    // decimals for exponents -4..15, "1e-05" style outside.
    char buf[40];
    const auto [ptr, ec] =
        std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    if (ec != std::errc())
        return "nan";
    const std::string_view sci(buf, static_cast<std::size_t>(ptr - buf));
    const auto e = sci.find('e');
    const int exponent = NumberText::toInt(sci.substr(e + 1)).value_or(0);
    if (exponent < -4 || exponent >= 16)
        return std::string(sci);
    std::string_view mantissa = sci.substr(0, e);
    std::string out;
    if (mantissa.front() == '-') {
        out += '-';
        mantissa.remove_prefix(1);
    }
    std::string digits;
    for (const char c : mantissa)
        if (c != '.')
            digits += c;
    if (exponent < 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-exponent - 1), '0');
        out += digits;
    } else if (static_cast<std::size_t>(exponent) + 1 >= digits.size()) {
        out += digits;
        out.append(static_cast<std::size_t>(exponent) + 1 - digits.size(), '0');
    } else {
        out += digits.substr(0, static_cast<std::size_t>(exponent) + 1);
        out += '.';
        out += digits.substr(static_cast<std::size_t>(exponent) + 1);
    }
    return out;
}

} // namespace ckpt
