#pragma once

#include "history/HistoryFragment.h"
#include "model/Run.h"

#include <string_view>
#include <vector>

namespace ckpt {

// The history the kept epochs themselves tell: per epoch with a ckpt-info.json,
// "best_so_far" (best_metric_last: the running best, not this epoch's value),
// "time_elapsed" and "model_mb" (model file size / 2^20), at the epoch's
// timestamp. Epochs are taken in time order (by number when a timestamp is
// missing); "__FIRST__" opens a new segment, guessed to have resumed from the
// epoch before it.
class CkptInfoHistory
{
public:
    static HistoryFragment fromEpochs(const std::vector<Epoch>& epochs, std::string_view root);
};

} // namespace ckpt
