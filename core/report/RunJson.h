#pragma once

#include "model/Run.h"
#include "scan/Scanner.h"

#include <nlohmann/json.hpp>
#include <string_view>

namespace ckpt {

// The CLI's JSON schema for scan results, in one place:
// {"runs": [{"root", "layout", <each link name of the layout: epoch>, "links",
//   <each source kind: path>, "in_progress", "epochs": [{"epoch", "step", "dir",
//   "model", "model_bytes", "info", "metrics", "problems"}], "problems": [{"kind",
//   "severity", "message", "path", "epoch"}]}], "walk_problems": [...]}
// "info" is the epoch's own record as the format wrote it (CANDLE ckpt-info.json,
// Orbax _CHECKPOINT_METADATA), null when it has none.
// Absent values are null; non-finite numbers (Python's Infinity/NaN) become null
// because strict JSON cannot carry them.
// Added later in protocol 1 (additive: older readers skip them), so that a run
// read back (RunJsonReader) equals the scanned one field for field: a run's
// "in_progress_epochs" (parallel to "in_progress"); an epoch's "first_save",
// "elapsed", "saved_at", "monitored", "metadata" (what a layout notes of an
// epoch without a record: "info" is null then), "files" (every file: name, bytes,
// present, model, algo and checksum unless none, checked_bytes unless 0,
// mtime_ns, inode),
// "metrics_nonfinite" ({name: "Infinity"|"-Infinity"|"NaN"} for the metrics
// written as null) and "info_raw" ({key: text as written} for the "info" or
// "metadata" values that do not dump back to it); the document's "walk_problems".
class RunJson
{
public:
    static nlohmann::ordered_json toJson(const Scanner::Outcome& outcome);
    static nlohmann::ordered_json toJson(const Run& run);
    // The text `ckpt scan --json` prints for a run, appended to `out`: toJson(run)
    // with the members of `extra` (an object) after the run's own ones and each
    // epoch on its own line, built one epoch at a time so that a run of 100,000
    // epochs never exists as one JSON tree.
    static void append(const Run& run, std::string& out,
                       const nlohmann::ordered_json& extra = nlohmann::ordered_json::object());
    static nlohmann::ordered_json toJson(const Run& run, const Epoch& epoch);
    // The epoch's expected checksum: {"algo", "expected"}; algo "none" when
    // nothing is recorded to verify against, null when the record is unreadable.
    static nlohmann::ordered_json checksumJson(const Run& run, const Epoch& epoch);
    static nlohmann::ordered_json toJson(const Problem& problem);
    static nlohmann::ordered_json toJson(const Problems& problems);
    static nlohmann::ordered_json toJson(const RunLink& link);
    static nlohmann::ordered_json toJson(const EpochFile& file);
    // The epoch's record in file order, non-finite numbers as null. `raw`
    // (optional) gets the text of each value that the JSON does not give back.
    static nlohmann::ordered_json metadataToJson(const KeyValues& metadata,
                                                 nlohmann::ordered_json* raw = nullptr);

private:
    // The members of toJson(run) before "epochs".
    static nlohmann::ordered_json headJson(const Run& run);
};

} // namespace ckpt
