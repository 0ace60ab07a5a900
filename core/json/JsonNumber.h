#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

namespace ckpt {

// The span of one JSON number, as Python's json and LenientJson accept one:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
struct JsonNumberSpan
{
    enum class Missing : std::uint8_t
    {
        Nothing,
        Digit,         // no digit where the number starts (after a '-')
        FractionDigit, // a '.' with no digit after it
        ExponentDigit  // an 'e' or 'E' (and sign) with no digit after it
    };
    std::size_t end = 0;  // one past the number; where a digit is missing otherwise
    bool integral = true; // neither fraction nor exponent
    Missing missing = Missing::Nothing;

    bool ok() const { return missing == Missing::Nothing; }
};

// The number that starts at text[pos]; a leading '-' is its own.
inline JsonNumberSpan scanJsonNumber(std::string_view text, std::size_t pos)
{
    using Missing = JsonNumberSpan::Missing;
    const char* const begin = text.data();
    const char* const end = begin + text.size();
    const char* p = begin + pos;
    const auto isDigit = [&] { return p != end && static_cast<unsigned char>(*p - '0') < 10; };
    const auto skipDigits = [&] {
        while (isDigit())
            ++p;
    };
    const auto stop = [&](bool integral, Missing missing) {
        return JsonNumberSpan{static_cast<std::size_t>(p - begin), integral, missing};
    };
    if (p != end && *p == '-')
        ++p;
    if (!isDigit())
        return stop(true, Missing::Digit);
    if (*p++ != '0')
        skipDigits();
    bool integral = true;
    if (p != end && *p == '.') {
        integral = false;
        ++p;
        if (!isDigit())
            return stop(false, Missing::FractionDigit);
        skipDigits();
    }
    if (p != end && (*p == 'e' || *p == 'E')) {
        integral = false;
        ++p;
        if (p != end && (*p == '+' || *p == '-'))
            ++p;
        if (!isDigit())
            return stop(false, Missing::ExponentDigit);
        skipDigits();
    }
    return stop(integral, Missing::Nothing);
}

// The value of a number scanJsonNumber accepted, as LenientJson holds it: an
// int64 when it fits, else a uint64, else the nearest double.
struct JsonNumber
{
    enum class Kind : std::uint8_t
    {
        Int,
        UInt,
        Double
    };
    Kind kind = Kind::Int;
    std::int64_t i = 0;
    std::uint64_t u = 0;
    double d = 0.0;
};

namespace detail {
// A decimal number outside double's range, as Python's float() reads it:
// +-infinity when its magnitude is too large, +-0.0 when too small.
double outOfRangeDouble(const char* first, const char* last);
} // namespace detail

inline JsonNumber jsonNumberValue(const char* first, const char* last, bool integral)
{
    JsonNumber n;
    if (integral) {
        if (*first == '-') {
            if (std::from_chars(first, last, n.i).ec == std::errc())
                return n;
        } else if (std::from_chars(first, last, n.u).ec == std::errc()) {
            if (n.u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
                n.i = static_cast<std::int64_t>(n.u);
            else
                n.kind = JsonNumber::Kind::UInt;
            return n;
        }
        // Larger than 64 bits: Python's int has no limit; a double is the closest we hold.
    }
    n.kind = JsonNumber::Kind::Double;
    if (std::from_chars(first, last, n.d).ec == std::errc::result_out_of_range)
        n.d = detail::outOfRangeDouble(first, last);
    return n;
}

} // namespace ckpt
