#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ckpt {

namespace detail {

// The first and last sizeof(Word) bytes of `n` (sizeof(Word) <= n <= 2 * sizeof(Word)).
template <typename Word>
[[gnu::always_inline]] inline void copyOverlapping(char* to, const char* from, std::size_t n)
{
    Word head;
    Word tail;
    std::memcpy(&head, from, sizeof(Word));
    std::memcpy(&tail, from + n - sizeof(Word), sizeof(Word));
    std::memcpy(to, &head, sizeof(Word));
    std::memcpy(to + n - sizeof(Word), &tail, sizeof(Word));
}

struct Bytes16
{
    unsigned char b[16];
};

} // namespace detail

// Copies `n` bytes as memcpy does, without a call for the short texts a JSON
// writer moves by the million (names, numbers, words): two overlapping loads
// and stores of a fixed size, always inlined (GCC otherwise leaves it, or the
// pieces of it, out of line in the large functions that call it most); longer
// ones go to memcpy.
[[gnu::always_inline]] inline void copyShort(char* to, const char* from, std::size_t n)
{
    if (n >= 16) {
        if (n > 32)
            std::memcpy(to, from, n);
        else
            detail::copyOverlapping<detail::Bytes16>(to, from, n);
    } else if (n >= 8) {
        detail::copyOverlapping<std::uint64_t>(to, from, n);
    } else if (n >= 4) {
        detail::copyOverlapping<std::uint32_t>(to, from, n);
    } else if (n > 0) {
        to[0] = from[0];
        to[n / 2] = from[n / 2];
        to[n - 1] = from[n - 1];
    }
}

} // namespace ckpt
