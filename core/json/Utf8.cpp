#include "json/Utf8.h"

namespace ckpt {

char32_t Utf8::decode(std::string_view text, std::size_t& i)
{
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
        ++i;
        return c;
    }
    const std::size_t len = c >= 0xf0 && c <= 0xf4   ? 4
                            : c >= 0xe0 && c <= 0xef ? 3
                            : c >= 0xc2 && c <= 0xdf ? 2
                                                     : 0;
    char32_t cp = len == 4 ? c & 0x07u : len == 3 ? c & 0x0fu : c & 0x1fu;
    // Count how much of the sequence is a valid prefix: the second byte's
    // range excludes overlong forms, surrogates and code points past U+10FFFF.
    std::size_t good = len == 0 ? 0 : 1;
    while (good > 0 && good < len && i + good < text.size()) {
        const auto b = static_cast<unsigned char>(text[i + good]);
        unsigned char lo = 0x80, hi = 0xbf;
        if (good == 1) {
            if (c == 0xe0)
                lo = 0xa0;
            else if (c == 0xed)
                hi = 0x9f;
            else if (c == 0xf0)
                lo = 0x90;
            else if (c == 0xf4)
                hi = 0x8f;
        }
        if (b < lo || b > hi)
            break;
        cp = (cp << 6) | (b & 0x3fu);
        ++good;
    }
    if (len != 0 && good == len) {
        i += len;
        return cp;
    }
    i += good > 0 ? good : 1;
    return kReplacement;
}

void Utf8::append(std::string& out, char32_t cp)
{
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xc0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xe0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (cp & 0x3f));
    }
}

void Utf8::appendValid(std::string& out, std::string_view text)
{
    std::size_t i = 0;
    while (i < text.size()) {
        if (static_cast<unsigned char>(text[i]) < 0x80) {
            std::size_t j = i + 1;
            while (j < text.size() && static_cast<unsigned char>(text[j]) < 0x80)
                ++j;
            out.append(text.data() + i, j - i);
            i = j;
            continue;
        }
        // A broken sequence and a genuine U+FFFD both append U+FFFD's bytes.
        const std::size_t start = i;
        if (decode(text, i) == kReplacement)
            out += "\xef\xbf\xbd";
        else
            out.append(text.data() + start, i - start);
    }
}

} // namespace ckpt
