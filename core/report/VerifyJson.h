#pragma once

#include "checksum/VerifyResult.h"
#include "common/Result.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ckpt {

// The one JSON form of a verification, for the CLI and for scripts:
// {"runs":[{"root": "...", "epochs":[{"epoch": N, "status": "ok", "expected": "...",
//   "actual": "...", "bytes": B, "seconds": s, "path": "...", "message": "..."}]}],
//  "totals": {"bytes": B, "seconds": s, "epochs": n, "ok": n, "mismatch": n, ...}}
// expected/actual/message are "" when there is nothing to say; every status name
// appears in totals, 0 included, so scripts need no defaults.
class VerifyJson
{
public:
    static nlohmann::ordered_json toJson(const VerifyReport& report);
    // Compact (indent < 0) or pretty-printed text.
    static std::string toText(const VerifyReport& report, int indent = -1);
    // The inverse of toJson, for tools that read a saved report back.
    static Result<VerifyReport> fromText(std::string_view text, std::string_view origin);
};

} // namespace ckpt
