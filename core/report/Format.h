#pragma once

#include <cstdint>
#include <string>

namespace ckpt {

// How numbers, sizes and durations are shown to people, the same in the GUI
// and the CLI. Sizes use SI units (1 kB = 1000 B), as `ls -h --si`, `du --si`
// and the file managers of the desktop do. Machine output (CSV, JSON) writes
// raw values instead (NumberText::format).
class Format
{
public:
    // 6 significant digits; "NaN", "inf", "-inf" for the non-finite values.
    static std::string number(double value);
    // "812 B", "48.1 kB", "591.1 MB", "1.2 GB".
    static std::string bytes(double bytes);
    // A duration in seconds: "26 ms", "4.2 s", "3:07" (m:ss), "1:02:07" (h:mm:ss).
    static std::string duration(double seconds);
    // "1 run", "2 runs", "0 runs": `count` and the noun, plural but for one.
    static std::string counted(long long count, const std::string& noun);
};

} // namespace ckpt
