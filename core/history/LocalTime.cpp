#include "history/LocalTime.h"

#include <cmath>
#include <ctime>

namespace ckpt {

namespace {

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out)
{
    if (pos + n > s.size())
        return false;
    int v = 0;
    for (std::size_t i = pos; i < pos + n; ++i) {
        const char c = s[i];
        if (c < '0' || c > '9')
            return false;
        v = v * 10 + (c - '0');
    }
    out = v;
    return true;
}

// mktime() is slow (it re-reads the zone) and logs have thousands of lines in
// the same hour: remember the start of the last hour converted. Zone offsets
// change on hour boundaries nearly everywhere.
struct HourCache
{
    int year = -1, month = -1, day = -1, hour = -1;
    std::time_t start = 0;
};

} // namespace

std::optional<double> LocalTime::parse(std::string_view text, std::size_t* consumed)
{
    int year, month, day, hour, minute, second;
    if (text.size() < 19 || text[4] != '-' || text[7] != '-' ||
        (text[10] != ' ' && text[10] != 'T') || text[13] != ':' || text[16] != ':')
        return std::nullopt;
    if (!digits(text, 0, 4, year) || !digits(text, 5, 2, month) || !digits(text, 8, 2, day) ||
        !digits(text, 11, 2, hour) || !digits(text, 14, 2, minute) || !digits(text, 17, 2, second))
        return std::nullopt;
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60)
        return std::nullopt;

    std::size_t pos = 19;
    double fraction = 0.0;
    if (pos < text.size() && (text[pos] == ',' || text[pos] == '.')) {
        std::size_t end = pos + 1;
        double scale = 0.1;
        while (end < text.size() && text[end] >= '0' && text[end] <= '9') {
            fraction += (text[end] - '0') * scale;
            scale /= 10;
            ++end;
        }
        if (end > pos + 1)
            pos = end;
    }

    thread_local HourCache cache;
    if (cache.year != year || cache.month != month || cache.day != day || cache.hour != hour) {
        std::tm tm{};
        tm.tm_year = year - 1900;
        tm.tm_mon = month - 1;
        tm.tm_mday = day;
        tm.tm_hour = hour;
        tm.tm_isdst = -1;
        const std::time_t t = std::mktime(&tm);
        if (t == static_cast<std::time_t>(-1))
            return std::nullopt;
        cache = HourCache{year, month, day, hour, t};
    }
    if (consumed)
        *consumed = pos;
    return static_cast<double>(cache.start) + minute * 60 + second + fraction;
}

std::string LocalTime::format(double wallTime)
{
    if (!std::isfinite(wallTime))
        return {};
    return formatSeconds(static_cast<std::int64_t>(std::floor(wallTime)));
}

std::string LocalTime::formatSeconds(std::int64_t seconds)
{
    thread_local std::int64_t lastSeconds = 0;
    thread_local std::string lastText;
    if (lastText.empty() || seconds != lastSeconds) {
        const std::time_t t = static_cast<std::time_t>(seconds);
        std::tm tm{};
        localtime_r(&t, &tm);
        char buf[32];
        std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
        lastText = buf;
        lastSeconds = seconds;
    }
    return lastText;
}

std::string LocalTime::formatNanoseconds(std::int64_t nanoseconds)
{
    constexpr std::int64_t kPerSecond = 1'000'000'000;
    const std::int64_t seconds = nanoseconds / kPerSecond - (nanoseconds % kPerSecond < 0 ? 1 : 0);
    return formatSeconds(seconds);
}

} // namespace ckpt
