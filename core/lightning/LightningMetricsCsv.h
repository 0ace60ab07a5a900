#pragma once

#include "history/HistoryFragment.h"

#include <string>

namespace ckpt {

// Lightning's CSVLogger metrics.csv as a history source: a header naming
// `epoch`, `step` and the logged metrics, then one row per logging call with
// only that call's metrics filled in (empty cells elsewhere). Rows are keyed
// by the step (`bySteps`, when the run's epochs are numbered by step) or by the
// epoch column (0-based, as Lightning counts, like the epoch numbers). A row
// that cannot be read becomes a problem naming the file and line; the other
// rows still count.
//
// Keyed by step, a row belongs to global step `step + 1`: Lightning logs with
// the count of batches stepped BEFORE the current one (a training step's row
// is written after its optimizer step, with `_batches_that_stepped` not yet
// incremented), and logs an epoch's validation and epoch-end metrics at that
// same step, while ModelCheckpoint names the file saved at the end of the
// epoch after `trainer.global_step`. So epoch E saved as `step=S` has its
// metrics on rows with step S-1.
class LightningMetricsCsv
{
public:
    static HistoryFragment read(const std::string& path, bool bySteps);
    static HistoryFragment parse(const std::string& text, const std::string& path, bool bySteps);
};

} // namespace ckpt
