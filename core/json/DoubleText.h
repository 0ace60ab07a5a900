#pragma once

#include <cstddef>

namespace ckpt {

// A finite double as nlohmann's dump() writes it: the shortest text that
// reads back to the same value, "1.0" for integral values, "1e-05" past the
// fixed range; written in place, without a document.
// (It once remembered the last values written, per thread: on this machine
// kind the look-up's cache miss cost more than writing the value again.)
class DoubleText
{
public:
    // Room the caller leaves at `out`.
    static constexpr std::size_t kMaxChars = 32;
    // Writes `value` (finite) at `out`, returns the end of what it wrote.
    static char* write(char* out, double value);
};

} // namespace ckpt
