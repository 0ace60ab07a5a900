#pragma once

#include <string>
#include <string_view>

namespace ckpt {

// The project's one UTF-8 decoder and encoder. Invalid input decodes the way
// Python's errors="replace" does: each maximal valid prefix of a broken
// sequence (or a lone invalid byte) becomes one U+FFFD, so "\xe2\x82x" is
// U+FFFD then 'x', as bytes.decode("utf-8", "replace") gives.
class Utf8
{
public:
    static constexpr char32_t kReplacement = 0xfffd;

    // Decodes the sequence at `i` and advances `i` past it (past the maximal
    // valid prefix when the sequence is broken, returning kReplacement).
    static char32_t decode(std::string_view text, std::size_t& i);

    // Appends `cp` (at most U+10FFFF, not a surrogate) encoded as UTF-8.
    static void append(std::string& out, char32_t cp);

    // Appends `text` with every invalid sequence replaced by U+FFFD.
    static void appendValid(std::string& out, std::string_view text);
};

} // namespace ckpt
