#pragma once

#include "common/Result.h"

#include <nlohmann/json.hpp>
#include <string_view>

namespace ckpt {

// A small recursive-descent JSON parser that also accepts what Python's json
// module writes by default but strict JSON forbids: bare Infinity, -Infinity
// and NaN (stored as double inf/NaN). Errors say where parsing stopped
// ("expected ',' or '}' at 1:57") so a user can open the file and look.
class LenientJson
{
public:
    // `origin` (a file path, usually) prefixes error messages; may be empty.
    static Result<nlohmann::ordered_json> parse(std::string_view text, std::string_view origin);

    // Nesting deeper than this is refused rather than risking the stack.
    static constexpr int kMaxDepth = 256;
};

} // namespace ckpt
