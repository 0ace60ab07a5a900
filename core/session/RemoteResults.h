#pragma once

#include "common/Result.h"
#include "model/MetricHistory.h"
#include "session/VerifySession.h"

#include <nlohmann/json.hpp>
#include <string>

namespace ckpt {

// The far `ckpt`'s JSON answers read back into what the window holds for a
// local run: `history --json` (HistoryTable's JSON) as a MetricHistory, and
// `verify --json` (VerifyJson) as verdicts per far run root.
class RemoteResults
{
public:
    static Result<MetricHistory> history(const nlohmann::ordered_json& document,
                                         const std::string& origin);
    struct Verification
    {
        std::map<std::string, VerifySession::Verdicts> verdicts; // by far run root
        QString summary;
    };
    static Result<Verification> verification(const nlohmann::ordered_json& document,
                                             const std::string& origin);
};

} // namespace ckpt
