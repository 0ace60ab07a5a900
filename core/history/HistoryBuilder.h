#pragma once

#include "history/HistoryFragment.h"
#include "model/MetricHistory.h"

#include <vector>

namespace ckpt {

// Merges every history source of a run into one MetricHistory: rows per
// (segment, epoch), each sample tagged with its source.
//
// Segments (training processes) come from the source that sees them best:
// ckpt.log (every process of the run, appended), else the epochs' ckpt-info.json
// ("__FIRST__" boundaries), else training.log, else history.txt. The other
// sources are fitted onto them:
// - ckpt-info epochs by time, when ckpt.log gives every process a start time;
// - otherwise segment by segment, newest first (an overwritten training.log holds
//   only the latest process), preferring the newest segment that resumed from
//   the same epoch and whose values agree; a segment that fits nowhere becomes a
//   segment of its own;
// - history.txt's epochs count from where its segment resumed.
// Where a segment resumed from: restart lines of ckpt.log, then training.log's
// first epoch, then ckpt-info's guess (the epoch before "__FIRST__").
// A row's wall time is the ckpt.log line of that epoch, else its ckpt-info time.
class HistoryBuilder
{
public:
    static MetricHistory merge(std::vector<HistoryFragment> fragments);
};

} // namespace ckpt
