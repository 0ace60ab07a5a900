#include "model/Problem.h"

#include <array>
#include <utility>

namespace ckpt {

namespace {
constexpr std::array<std::pair<ProblemKind, std::string_view>, 17> kNames{{
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
    {ProblemKind::CopiedLink, "copied_link"},
    {ProblemKind::ChecksumMismatch, "checksum_mismatch"},
    {ProblemKind::NameCollision, "name_collision"},
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
    return kind == ProblemKind::RelocatedLink || kind == ProblemKind::CopiedLink;
}

std::string_view plainName(ProblemKind kind)
{
    switch (kind) {
    case ProblemKind::InterruptedSave:
        return "Interrupted save (leftover work/)";
    case ProblemKind::ModelWithoutInfo:
        return "Model without ckpt-info.json";
    case ProblemKind::InfoWithoutModel:
        return "Model file missing";
    case ProblemKind::BadInfo:
        return "Unreadable ckpt-info.json";
    case ProblemKind::EpochMismatch:
        return "Epoch number disagrees";
    case ProblemKind::DanglingLink:
        return "Broken link";
    case ProblemKind::RelocatedLink:
        return "Link from before a move";
    case ProblemKind::CopiedLink:
        return "Link into the original (copied run)";
    case ProblemKind::LinkOutsideRun:
        return "Link points outside the run";
    case ProblemKind::LinkToMissingEpoch:
        return "Link to a deleted epoch";
    case ProblemKind::LinkNotEpoch:
        return "Link is not an epoch";
    case ProblemKind::BestNotAtBest:
        return "best is not the best epoch";
    case ProblemKind::Unreadable:
        return "Cannot read";
    case ProblemKind::LinkLoop:
        return "Link loop";
    case ProblemKind::BadLog:
        return "Log partly unreadable";
    case ProblemKind::ChecksumMismatch:
        return "Checksum mismatch (model changed or corrupted)";
    case ProblemKind::NameCollision:
        return "Two checkpoints under one name";
    }
    return "Problem";
}

std::optional<ProblemKind> problemKindFromString(std::string_view name)
{
    for (const auto& [k, n] : kNames)
        if (n == name)
            return k;
    return std::nullopt;
}

} // namespace ckpt
