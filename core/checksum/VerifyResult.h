#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// The outcome of checking one epoch's model file against its recorded CRC.
enum class VerifyStatus
{
    Ok,         // CRC matches
    Mismatch,   // CRC differs (or the recorded value is not a decimal CRC)
    Disabled,   // ckpt-info.json says "__DISABLED__": nothing to compare with
    Missing,    // the model file is absent
    NoChecksum, // ckpt-info.json has no checksum key (some CANDLE versions)
    Error,      // the model file could not be read
    BadInfo,    // no readable ckpt-info.json
};
inline constexpr std::size_t kVerifyStatusCount = 7;

// "ok", "mismatch", "disabled", "missing", "no_checksum", "error", "bad_info"
std::string_view toString(VerifyStatus status);
std::optional<VerifyStatus> verifyStatusFromString(std::string_view name);

struct EpochVerdict
{
    int epoch = 0;
    std::string root; // the run root
    std::string path; // the model file checked (or that should be there)
    VerifyStatus status = VerifyStatus::Error;
    std::string expected;    // recorded checksum as written, empty when none
    std::string actual;      // computed CRC-32 in decimal, empty when not computed
    std::uint64_t bytes = 0; // bytes read
    double seconds = 0;      // wall time spent on this file
    std::string message;     // why, for every status but Ok
};

struct RunVerdict
{
    std::string root;
    std::vector<EpochVerdict> epochs; // in the run's epoch order
};

struct VerifyTotals
{
    std::uint64_t bytes = 0;
    double seconds = 0; // wall time of the whole verification
    std::array<int, kVerifyStatusCount> counts{};

    int count(VerifyStatus status) const { return counts[static_cast<std::size_t>(status)]; }
    int epochs() const;
    // True when every epoch verified Ok or had nothing to verify against
    // (Disabled, NoChecksum): no evidence of damage.
    bool clean() const;
};

struct VerifyReport
{
    std::vector<RunVerdict> runs;
    VerifyTotals totals;
};

} // namespace ckpt
