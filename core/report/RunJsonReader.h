#pragma once

#include "common/Result.h"
#include "model/Run.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// The reverse of RunJson: a Run from the JSON `ckpt scan --json` prints, so a
// client reading a far `ckpt` over ssh holds the same model a local scan gives.
// From a current `ckpt` the run read back equals the scanned one field for
// field (tests/report/tst_RunJsonReader); from an older one (before "files",
// "first_save", ... were added) what it left out stays empty: files other than
// the model, file identities, save time, elapsed seconds, restart flag, and
// non-finite metrics read as NaN.
class RunJsonReader
{
public:
    // A whole `scan --json` document.
    struct Scan
    {
        int protocol = 0; // 0 when the document has none (a ckpt before protocols)
        std::vector<Run> runs;
        std::vector<std::string> liveness; // per run, "" when not given
        Problems walkProblems;
    };

    static Result<Scan> scan(std::string_view text);
    static Result<Scan> scanDocument(const nlohmann::ordered_json& document);
    static Result<Run> run(const nlohmann::ordered_json& j);
    // An epoch object of run `root` (also a `watch --json` epoch event).
    static Result<Epoch> epoch(const nlohmann::ordered_json& j, const std::string& root);
    static Result<Problem> problem(const nlohmann::ordered_json& j);
    static Result<Problems> problems(const nlohmann::ordered_json& j);
};

} // namespace ckpt
