#pragma once

#include "launch/LaunchRecord.h"
#include "model/MetricHistory.h"
#include "model/Run.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// The branches a run's plot draws besides its own history (HistoryBranch):
// what its restarts moved aside, and where a fork came from. Read from disk
// only (the superseded folders with the logs kept beside them, the launch
// record); never fails: what cannot be read is left out.
class RunBranches
{
public:
    // Where a forked run came from, from its launch record.
    struct ForkOrigin
    {
        std::string parentRoot;
        int epoch = 0;
        std::string submitted;               // ISO 8601 UTC
        std::optional<int> supersededBefore; // LaunchParent::supersededBefore
    };
    static std::optional<ForkOrigin> forkOrigin(const std::filesystem::path& root);

    // One branch per folder under ROOT/.ckpt-studio/superseded/, oldest first:
    // the folder's history (its epochs and the training.log/ckpt.log kept
    // beside them), the newest row per epoch. The restart epoch comes from
    // the launch record's restart made right after the folder, else the first
    // epoch moved aside, minus one.
    // `before`: only the folders made before the before-th (the parent as a fork saw it).
    static std::vector<HistoryBranch> superseded(const std::filesystem::path& root,
                                                 std::size_t before = SIZE_MAX);
    // The folders under ROOT/.ckpt-studio/superseded/, oldest first: one per
    // restart, each keeping the run as it was before that restart.
    static std::vector<std::filesystem::path> supersededFolders(const std::filesystem::path& root);

    // A fork's lead-in: its parent's epochs up to the fork epoch as they were
    // when it forked (the parent's first superseded folder made after the
    // fork, else the parent's history now, else the fork's own copy of them).
    static std::optional<HistoryBranch> forkLeadIn(const std::filesystem::path& root,
                                                   const MetricHistory& own);

    // Both, for `history` of the run at `root`: superseded branches, then the lead-in.
    static std::vector<HistoryBranch> of(const std::filesystem::path& root,
                                         const MetricHistory& history);

    // The run's history as Ckpt Studio shows it (the epoch table, the plot,
    // `ckpt history`): historyOf(run), its branches (of()), and the epochs up to
    // each restart that the run's own logs lost but a superseded folder kept,
    // put back into the segment that trained them (restoredFromBranches());
    // a fork's epochs up to its fork epoch get what its parent logged for them.
    static MetricHistory completeHistory(const Run& run);

    // The shown name of a run root: its run folder's name ("RUN001").
    static std::string displayName(const std::filesystem::path& root);
};

} // namespace ckpt
