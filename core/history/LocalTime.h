#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// CANDLE's timestamps: local time without a zone, "YYYY-MM-DD HH:MM:SS" with
// logging's optional ",mmm" (or ".ffffff"). Read as local time of this machine,
// which is what the writer meant when the run was not moved across zones.
class LocalTime
{
public:
    // Seconds since the Unix epoch. `consumed` receives the length read.
    static std::optional<double> parse(std::string_view text, std::size_t* consumed = nullptr);
    // "YYYY-MM-DD HH:MM:SS" in local time.
    static std::string format(double wallTime);
    // The same of whole seconds, and of a file's mtime in nanoseconds (the
    // second it falls in, before 1970 too). The last answer is kept per
    // thread: a folder's checkpoints are often saved within one second, and
    // localtime_r takes a lock.
    static std::string formatSeconds(std::int64_t seconds);
    static std::string formatNanoseconds(std::int64_t nanoseconds);
};

} // namespace ckpt
