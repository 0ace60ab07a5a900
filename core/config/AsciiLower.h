#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace ckpt {

// Lower-cases ASCII letters only: parameter names, INI keys and Python's
// boolean words compare case-insensitively, whatever the locale.
inline std::string asciiLower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

} // namespace ckpt
