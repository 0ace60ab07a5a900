#include "checksum/VerifyResult.h"

#include <numeric>

namespace ckpt {

namespace {

constexpr std::array<std::string_view, kVerifyStatusCount> kNames = {
    "ok", "mismatch", "disabled", "missing", "no_checksum", "error", "bad_info"};

} // namespace

std::string_view toString(VerifyStatus status)
{
    return kNames[static_cast<std::size_t>(status)];
}

std::optional<VerifyStatus> verifyStatusFromString(std::string_view name)
{
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        if (kNames[i] == name)
            return static_cast<VerifyStatus>(i);
    }
    return std::nullopt;
}

int VerifyTotals::epochs() const
{
    return std::accumulate(counts.begin(), counts.end(), 0);
}

bool VerifyTotals::clean() const
{
    return count(VerifyStatus::Mismatch) == 0 && count(VerifyStatus::Missing) == 0 &&
           count(VerifyStatus::Error) == 0 && count(VerifyStatus::BadInfo) == 0;
}

} // namespace ckpt
