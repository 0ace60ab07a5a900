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
class LightningMetricsCsv
{
public:
    static HistoryFragment read(const std::string& path, bool bySteps);
    static HistoryFragment parse(const std::string& text, const std::string& path, bool bySteps);
};

} // namespace ckpt
