#include "json/JsonNumber.h"

#include <algorithm>

namespace ckpt::detail {

double outOfRangeDouble(const char* first, const char* last)
{
    const bool negative = first != last && *first == '-';
    const char* p = first + (negative ? 1 : 0);
    // The power of ten of the first non-zero digit, before the exponent.
    long long order = 0;
    bool seen = false;
    bool afterPoint = false;
    for (; p != last && *p != 'e' && *p != 'E'; ++p) {
        if (*p == '.') {
            afterPoint = true;
            continue;
        }
        if (!seen && *p != '0') {
            seen = true;
            if (afterPoint)
                --order;
        } else if (!seen && afterPoint) {
            --order;
        } else if (seen && !afterPoint) {
            ++order;
        }
    }
    long long exponent = 0;
    if (p != last) {
        ++p;
        const bool down = *p == '-';
        p += (*p == '+' || *p == '-') ? 1 : 0;
        for (; p != last; ++p)
            exponent = std::min(exponent * 10 + (*p - '0'), 1'000'000'000LL);
        exponent = down ? -exponent : exponent;
    }
    const double magnitude =
        seen && order + exponent >= 0 ? std::numeric_limits<double>::infinity() : 0.0;
    return negative ? -magnitude : magnitude;
}

} // namespace ckpt::detail
