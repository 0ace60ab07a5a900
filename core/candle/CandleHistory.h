#pragma once

#include "model/MetricHistory.h"
#include "model/Run.h"

namespace ckpt {

// A CANDLE run's history: ckpt.log, training.log (Keras CSVLogger) and
// history.txt where the run has them (Run::sources), and the epochs'
// ckpt-info.json, merged by HistoryBuilder::merge. Never fails: unreadable or
// bad files become problems of the result.
class CandleHistory
{
public:
    static MetricHistory build(const Run& run);
};

} // namespace ckpt
