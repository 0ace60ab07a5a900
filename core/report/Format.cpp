#include "report/Format.h"

#include <cmath>
#include <cstdio>

namespace ckpt {

std::string Format::counted(long long count, const std::string& noun)
{
    std::string text = std::to_string(count);
    text += ' ';
    text += noun;
    if (count != 1)
        text += 's';
    return text;
}

std::string Format::number(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", value);
    return buf;
}

std::string Format::bytes(double bytes)
{
    static const char* const kUnits[] = {"B", "kB", "MB", "GB", "TB", "PB"};
    if (!std::isfinite(bytes))
        return number(bytes) + " B";
    int unit = 0;
    // Round first, so 999,960 B reads "1.0 MB", not "1000.0 kB".
    while (unit < 5 && std::fabs(bytes) >= (unit == 0 ? 1000.0 : 999.95)) {
        bytes /= 1000.0;
        ++unit;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, unit == 0 ? "%.0f %s" : "%.1f %s", bytes, kUnits[unit]);
    return buf;
}

std::string Format::duration(double seconds)
{
    if (!std::isfinite(seconds))
        return number(seconds) + " s";
    char buf[48];
    const double a = std::fabs(seconds);
    const char* sign = seconds < 0 ? "-" : "";
    if (a < 0.9995) {
        std::snprintf(buf, sizeof buf, "%s%.0f ms", sign, a * 1000.0);
    } else if (a < 59.95) {
        std::snprintf(buf, sizeof buf, "%s%.1f s", sign, a);
    } else {
        const auto total = static_cast<long long>(std::llround(a));
        const long long h = total / 3600;
        const long long m = (total / 60) % 60;
        const long long s = total % 60;
        if (h > 0)
            std::snprintf(buf, sizeof buf, "%s%lld:%02lld:%02lld", sign, h, m, s);
        else
            std::snprintf(buf, sizeof buf, "%s%lld:%02lld", sign, m, s);
    }
    return buf;
}

} // namespace ckpt
