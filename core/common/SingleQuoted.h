#pragma once

#include <string>
#include <string_view>

namespace ckpt {

// 'text', for messages ("'adam' is not a number"). Built by appending: GCC 12
// at -O3 reports a false -Wrestrict on `"'" + std::string(...)` (operator+
// inserting in front of a temporary), which would break -Werror builds.
inline std::string singleQuoted(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + 2);
    out += '\'';
    out.append(text);
    out += '\'';
    return out;
}

} // namespace ckpt
