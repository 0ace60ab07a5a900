#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace ckpt {

// Copies `n` bytes as memcpy does, without a call for the short texts a JSON
// writer moves by the million (names, numbers, words): two overlapping loads
// and stores of a fixed size, inlined; longer ones go to memcpy.
inline void copyShort(char* to, const char* from, std::size_t n)
{
    const auto pair = [&](auto width) {
        constexpr std::size_t w = sizeof(width);
        decltype(width) head;
        decltype(width) tail;
        std::memcpy(&head, from, w);
        std::memcpy(&tail, from + n - w, w);
        std::memcpy(to, &head, w);
        std::memcpy(to + n - w, &tail, w);
    };
    struct Bytes16
    {
        unsigned char b[16];
    };
    if (n >= 16) {
        if (n > 32)
            std::memcpy(to, from, n);
        else
            pair(Bytes16{});
    } else if (n >= 8) {
        pair(std::uint64_t{});
    } else if (n >= 4) {
        pair(std::uint32_t{});
    } else if (n > 0) {
        to[0] = from[0];
        to[n / 2] = from[n / 2];
        to[n - 1] = from[n - 1];
    }
}

} // namespace ckpt
