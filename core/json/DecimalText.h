#pragma once

#include <charconv>
#include <cstdint>
#include <system_error>

namespace ckpt {

// std::from_chars for a double, with the same result and the same contract,
// answered without the general algorithm for the numbers a trainer writes
// most: [-]digits[.digits], at most 2^53 as an integer of all its digits and
// at most 22 of them after the point. Such a number is that integer divided
// by an exact power of ten, and one IEEE division rounds it correctly
// (Clinger, "How to read floating point numbers accurately", 1990). Any other
// text goes to std::from_chars.
inline std::from_chars_result decimalFromChars(const char* first, const char* last, double& value)
{
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char* p = first;
    const bool negative = p != last && *p == '-';
    p += negative ? 1 : 0;
    std::uint64_t digits = 0;
    int count = 0;
    int fraction = 0;
    const char* whole = p;
    for (; p != last && *p >= '0' && *p <= '9'; ++p, ++count)
        digits = digits * 10 + static_cast<std::uint64_t>(*p - '0');
    bool plain = p != whole;
    if (plain && p != last && *p == '.') {
        const char* point = ++p;
        for (; p != last && *p >= '0' && *p <= '9'; ++p, ++count)
            digits = digits * 10 + static_cast<std::uint64_t>(*p - '0');
        fraction = static_cast<int>(p - point);
        plain = fraction > 0;
    }
    // 19 digits cannot overflow the integer; 2^53 and below are exact doubles.
    if (plain && p == last && count <= 19 && digits <= (std::uint64_t{1} << 53) && fraction <= 22) {
        const double magnitude = static_cast<double>(digits) / kPow10[fraction];
        value = negative ? -magnitude : magnitude;
        return {last, std::errc()};
    }
    return std::from_chars(first, last, value);
}

} // namespace ckpt
