#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace ckpt {

// One JSON value as compact text, non-finite numbers as Python's json writes
// them (Infinity, -Infinity, NaN) so that LenientJson reads back what was read.
std::string jsonText(const nlohmann::ordered_json& value);

namespace detail {

// Of the eight bytes at `at`, a word whose high bit is set in each byte that
// needs care in a JSON string: >= 0x80, < 0x20, '"' or '\\' (the classic "has
// a byte less than n" test, exact for the lowest such byte; bytes after a
// borrow may show as false positives).
[[gnu::always_inline]] inline std::uint64_t notPlainJsonBytes(const char* at)
{
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    constexpr std::uint64_t kHigh = 0x8080808080808080ULL;
    const auto less = [](std::uint64_t x, std::uint64_t n) { return (x - kOnes * n) & ~x & kHigh; };
    std::uint64_t x;
    std::memcpy(&x, at, 8);
    return (x & kHigh) | less(x, 0x20) | less(x ^ (kOnes * '"'), 1) | less(x ^ (kOnes * '\\'), 1);
}

} // namespace detail

// How many bytes from `data` on can stand between JSON quotes as they are
// (ASCII, no control character, no '"' or '\\'): the index of the first that
// cannot, `size` when all can. Sixteen bytes at a time (SSE2), then eight, then
// one; inline, as the fast ckpt-info.json reader asks it of every key and
// string and `scan --json` of every path it prints.
[[gnu::always_inline]] inline std::size_t plainJsonPrefix(const char* data, std::size_t size)
{
    static_assert(std::endian::native == std::endian::little);
    std::size_t at = 0;
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i space = _mm_set1_epi8(0x20);
    for (; at + 16 <= size; at += 16) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(data + at));
        // Bytes >= 0x80 are negative as signed bytes: below 0x20 like the controls.
        const __m128i bad =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                         _mm_cmplt_epi8(v, space));
        if (const int mask = _mm_movemask_epi8(bad))
            return at + static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(mask)));
    }
#endif
    for (; at + 8 <= size; at += 8)
        if (const std::uint64_t bad = detail::notPlainJsonBytes(data + at))
            return at + static_cast<std::size_t>(std::countr_zero(bad) / 8);
    for (; at < size; ++at) {
        const auto c = static_cast<unsigned char>(data[at]);
        if (c >= 0x80 || c < 0x20 || c == '"' || c == '\\')
            return at;
    }
    return size;
}

// True when `text` can stand between JSON quotes as it is. Only a yes or no:
// the last piece is read overlapping the one before (no byte loop), and a
// text under eight bytes is padded with plain ones.
[[gnu::always_inline]] inline bool isPlainJsonText(std::string_view text)
{
    const char* data = text.data();
    const std::size_t size = text.size();
    if (size >= 16) {
        const std::size_t whole = size & ~std::size_t{7}; // words only: no byte loop
        return plainJsonPrefix(data, whole) == whole && !detail::notPlainJsonBytes(data + size - 8);
    }
    if (size >= 8)
        return !(detail::notPlainJsonBytes(data) | detail::notPlainJsonBytes(data + size - 8));
    char padded[8] = {'a', 'a', 'a', 'a', 'a', 'a', 'a', 'a'};
    if (size != 0) // an empty view may have no data at all
        std::memcpy(padded, data, size);
    return !detail::notPlainJsonBytes(padded);
}

} // namespace ckpt
