#pragma once

#include <cstddef>

namespace ckpt {

// A finite double as nlohmann's dump() writes it: the shortest text that
// reads back to the same value, "1.0" for integral values, "1e-05" past the
// fixed range. The text of the last few thousand values written on this thread
// is remembered: a scan writes each double of an epoch's record when it reads
// it and the same value again, an epoch's metric, when it prints the epoch.
// The result never depends on what is remembered (a pure function's memo).
class DoubleText
{
public:
    // Room the caller leaves at `out`.
    static constexpr std::size_t kMaxChars = 32;
    // Writes `value` (finite) at `out`, returns the end of what it wrote.
    static char* write(char* out, double value);
};

} // namespace ckpt
