#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ckpt {

// The content of one ckpt-info.json, read leniently. Every field is optional
// because real files lack some (old writers, weights-only saves). Numbers keep
// Python's non-finite values: +inf for "nothing improved yet", NaN as written.
struct CkptInfo
{
    std::optional<int> epoch;
    std::optional<std::string> saveBestMetric; // null when save_best is off
    std::optional<double> bestMetricLast;      // best SO FAR; may be +/-inf or NaN
    std::optional<std::string> modelFile;      // "model.h5"
    std::optional<std::string> checksum;       // decimal CRC-32 or "__DISABLED__"
    std::optional<std::string> timestamp;      // "%Y-%m-%d %H:%M:%S", local time
    std::optional<double> timeElapsed;         // seconds since previous save
    bool firstSave = false;                    // time_elapsed == "__FIRST__"
    std::optional<std::string> metadata;

    // Every key of the file as read (non-finite numbers as JSON numbers holding
    // inf/NaN), so unknown and legacy keys are kept and written back; null (no
    // keys, nothing allocated) for an info not read from a file.
    nlohmann::ordered_json raw;

    bool checksumDisabled() const { return checksum && *checksum == "__DISABLED__"; }
};

} // namespace ckpt
