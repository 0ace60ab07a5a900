#include "model/Problem.h"

#include <array>
#include <utility>

namespace ckpt {

namespace {
constexpr std::array<std::pair<ProblemKind, std::string_view>, 15> kNames{{
    {ProblemKind::InterruptedSave, "interrupted_save"},
    {ProblemKind::ModelWithoutInfo, "model_without_info"},
    {ProblemKind::InfoWithoutModel, "info_without_model"},
    {ProblemKind::BadInfo, "bad_info"},
    {ProblemKind::EpochMismatch, "epoch_mismatch"},
    {ProblemKind::DanglingLink, "dangling_link"},
    {ProblemKind::RelocatedLink, "relocated_link"},
    {ProblemKind::LinkOutsideRun, "link_outside_run"},
    {ProblemKind::LinkToMissingEpoch, "link_to_missing_epoch"},
    {ProblemKind::LinkNotEpoch, "link_not_epoch"},
    {ProblemKind::BestNotAtBest, "best_not_at_best"},
    {ProblemKind::Unreadable, "unreadable"},
    {ProblemKind::LinkLoop, "link_loop"},
    {ProblemKind::BadLog, "bad_log"},
    {ProblemKind::ChecksumMismatch, "checksum_mismatch"},
}};
} // namespace

std::string_view toString(ProblemKind kind)
{
    for (const auto& [k, name] : kNames)
        if (k == kind)
            return name;
    return "unknown";
}

bool isWarningOnly(ProblemKind kind)
{
    return kind == ProblemKind::RelocatedLink;
}

std::optional<ProblemKind> problemKindFromString(std::string_view name)
{
    for (const auto& [k, n] : kNames)
        if (n == name)
            return k;
    return std::nullopt;
}

} // namespace ckpt
