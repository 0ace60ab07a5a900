#pragma once

#include "model/Run.h"
#include "scan/Scanner.h"

#include <nlohmann/json.hpp>

namespace ckpt {

// The CLI's JSON schema for scan results, in one place:
// {"runs": [{"root", "layout", "last", "best", "links", "ckpt_log", "training_log",
//   "history_txt", "work_dir", "epochs": [{"epoch", "dir", "model", "model_bytes", "info",
//   "problems"}], "problems": [{"kind", "message", "path", "epoch"}]}], "walk_problems": [...]}
// Absent values are null; non-finite numbers (Python's Infinity/NaN) become null
// because strict JSON cannot carry them.
class RunJson
{
public:
    static nlohmann::ordered_json toJson(const Scanner::Outcome& outcome);
    static nlohmann::ordered_json toJson(const Run& run);
    static nlohmann::ordered_json toJson(const Epoch& epoch);
    static nlohmann::ordered_json toJson(const Problem& problem);
    static nlohmann::ordered_json toJson(const Problems& problems);
    static nlohmann::ordered_json toJson(const RunLink& link);
    // The ckpt-info.json fields in file order, non-finite numbers as null.
    static nlohmann::ordered_json infoToJson(const CkptInfo& info);
};

} // namespace ckpt
