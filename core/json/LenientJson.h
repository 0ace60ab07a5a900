#pragma once

#include "common/Result.h"

#include <nlohmann/json.hpp>
#include <string>
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

    // `text` with every invalid UTF-8 sequence replaced by U+FFFD (as Python's
    // errors="replace"): strings inside parsed values already are; use it for
    // file names and messages headed for JSON, which must be valid UTF-8.
    static std::string validUtf8(std::string_view text);

    // Nesting deeper than this is refused rather than risking the stack.
    static constexpr int kMaxDepth = 256;

    // Does `text` nest arrays and objects at most kMaxDepth deep? Checked before
    // nlohmann's own parser reads JSON from a file (HDF5 attributes): its parse
    // is iterative, but dump() and the destructor recurse, and a hostile
    // model_config of 200,000 '[' overflows the stack.
    static bool withinMaxDepth(std::string_view text);
};

} // namespace ckpt
