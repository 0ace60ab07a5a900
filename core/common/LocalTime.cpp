#include "common/LocalTime.h"

#include <ctime>

namespace ckpt {

std::string localTimeText(std::int64_t seconds)
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

} // namespace ckpt
