#pragma once

#include <bit>
#include <cfloat>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <system_error>

namespace ckpt {

namespace detail {

// The digits at `p` (up to `last`) appended to `digits` (wrapping past 19
// of them, which callers refuse by `count`), eight at a time where eight are
// there: one test tells that eight bytes are all digits, three multiplications
// combine them (pairs, fours, the eight).
inline void addDigits(const char*& p, const char* last, std::uint64_t& digits, int& count)
{
    static_assert(std::endian::native == std::endian::little);
    while (last - p >= 8) {
        std::uint64_t eight = 0;
        std::memcpy(&eight, p, 8);
        // A byte is a digit when its high nibble is 3 and adding 6 keeps it 3.
        if ((((eight & 0xF0F0F0F0F0F0F0F0) |
              (((eight + 0x0606060606060606) & 0xF0F0F0F0F0F0F0F0) >> 4)) != 0x3333333333333333))
            break;
        eight -= 0x3030303030303030;                              // eight values 0-9, first lowest
        eight = (eight * 10 + (eight >> 8)) & 0x00FF00FF00FF00FF; // four pairs 0-99
        eight = (eight * 100 + (eight >> 16)) & 0x0000FFFF0000FFFF; // two fours 0-9999
        eight = (eight * 10000 + (eight >> 32)) & 0xFFFFFFFF;       // the eight
        digits = digits * 100000000 + eight;
        p += 8;
        count += 8;
    }
    for (; p != last && *p >= '0' && *p <= '9'; ++p, ++count)
        digits = digits * 10 + static_cast<std::uint64_t>(*p - '0');
}

} // namespace detail

// std::from_chars for a double, with the same result and the same contract,
// answered without the general algorithm for the numbers a trainer writes
// most: [-]digits[.digits], at most 2^53 as an integer of all its digits and
// at most 22 of them after the point. Such a number is that integer divided
// by an exact power of ten, and one IEEE division rounds it correctly
// (Clinger, "How to read floating point numbers accurately", 1990).
//
// Where long double is x87's (a 64-bit significand), so are numbers of up to
// 19 digits and 27 after the point, what Python writes for most doubles (17
// significant digits): the integer and 10^k (k <= 27: 5^k < 2^64) are exact
// long doubles, so their quotient is correctly rounded to 64 bits, and
// rounding that to a double gives the correctly rounded double unless the
// 64-bit quotient lies on a midpoint between two doubles (double rounding),
// which the low 11 bits of its significand tell: those few (and 1 ulp around
// them, for margin) go to std::from_chars. GCC 12's std::from_chars costs
// about a microsecond on the machines the scan bench runs on.
//
// Any other text goes to std::from_chars.
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
    detail::addDigits(p, last, digits, count);
    bool plain = p != whole;
    if (plain && p != last && *p == '.') {
        const char* point = ++p;
        detail::addDigits(p, last, digits, count);
        fraction = static_cast<int>(p - point);
        plain = fraction > 0;
    }
    // 19 digits cannot overflow the integer; 2^53 and below are exact doubles.
    if (plain && p == last && count <= 19 && digits <= (std::uint64_t{1} << 53) && fraction <= 22) {
        const double magnitude = static_cast<double>(digits) / kPow10[fraction];
        value = negative ? -magnitude : magnitude;
        return {last, std::errc()};
    }
#if defined(__x86_64__) && LDBL_MANT_DIG == 64
    static constexpr long double kPow10L[] = {1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,
                                              1e7L,  1e8L,  1e9L,  1e10L, 1e11L, 1e12L, 1e13L,
                                              1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L,
                                              1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};
    if (plain && p == last && count <= 19 && fraction <= 27) {
        const long double quotient = static_cast<long double>(digits) / kPow10L[fraction];
        std::uint64_t significand = 0; // x87: the explicit 64-bit significand first
        std::memcpy(&significand, &quotient, sizeof significand);
        const unsigned low = static_cast<unsigned>(significand & 0x7ff);
        if (low < 0x3ff || low > 0x401) {
            const double magnitude = static_cast<double>(quotient);
            value = negative ? -magnitude : magnitude;
            return {last, std::errc()};
        }
    }
#endif
    return std::from_chars(first, last, value);
}

} // namespace ckpt
