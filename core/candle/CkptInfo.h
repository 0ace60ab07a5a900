#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

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
    // keys, nothing allocated) for an info not read from a file or read by the
    // fast reader, whose keys are in the epoch's record instead.
    nlohmann::ordered_json raw;

    bool checksumDisabled() const { return checksum && *checksum == "__DISABLED__"; }
};

// The fields of a CkptInfo without copies: views into the text of the file
// (CkptInfoReader::readFlat) or into a CkptInfo that outlives them (of()).
struct CkptInfoView
{
    std::optional<int> epoch;
    std::optional<std::string_view> saveBestMetric;
    std::optional<double> bestMetricLast;
    std::optional<std::string_view> modelFile;
    std::optional<std::string_view> checksum;
    std::optional<std::string_view> timestamp;
    std::optional<double> timeElapsed;
    bool firstSave = false;
    std::optional<std::string_view> metadata;

    static CkptInfoView of(const CkptInfo& info);
    bool checksumDisabled() const { return checksum && *checksum == "__DISABLED__"; }
};

} // namespace ckpt
