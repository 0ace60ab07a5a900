#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ckpt {

// One JSON value as compact text, non-finite numbers as Python's json writes
// them (Infinity, -Infinity, NaN) so that LenientJson reads back what was read.
std::string jsonText(const nlohmann::ordered_json& value);

namespace detail {

// Of the eight bytes at `at`, a word whose high bit is set in each byte that
// needs care in a JSON string: >= 0x80, < 0x20, '"' or '\\' (the classic "has
// a byte less than n" test, exact for the lowest such byte; bytes after a
// borrow may show as false positives).
inline std::uint64_t notPlainJsonBytes(const char* at)
{
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
    const auto less = [](std::uint64_t x, std::uint64_t n) { return (x - kOnes * n) & ~x & kHigh; };
    std::uint64_t x;
    std::memcpy(&x, at, 8);
    return (x & kHigh) | less(x, 0x20) | less(x ^ (kOnes * '"'), 1) | less(x ^ (kOnes * '\\'), 1);
}

} // namespace detail

// The index (0 to 7) of the first of the eight bytes at `at` that cannot stand
// between JSON quotes as it is, 8 when all can (little-endian byte order).
inline int firstNotPlainJsonText(const char* at)
{
    static_assert(std::endian::native == std::endian::little);
    const std::uint64_t bad = detail::notPlainJsonBytes(at);
    return bad == 0 ? 8 : std::countr_zero(bad) / 8;
}

// True when `text` can stand between JSON quotes as it is: ASCII, no control
// character, no '"' or '\\'. Eight bytes at a time; inline, as the fast
// ckpt-info.json reader asks it of every key and string.
inline bool isPlainJsonText(std::string_view text)
{
    const auto bad = [](const char* at) { return detail::notPlainJsonBytes(at) != 0; };
    const std::size_t n = text.size();
    if (n >= 8) {
        // Words, the last one overlapping the one before when the size is not a multiple of 8.
        for (std::size_t i = 0; i + 8 <= n; i += 8)
            if (bad(text.data() + i))
                return false;
        return !bad(text.data() + n - 8);
    }
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x80 || c < 0x20 || c == '"' || c == '\\')
            return false;
    }
    return true;
}

} // namespace ckpt
