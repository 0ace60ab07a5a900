#pragma once

#include "history/HistoryFragment.h"
#include "model/Run.h"

#include <string_view>
#include <vector>

namespace ckpt {

// The history the kept epochs themselves tell: per epoch with a record (CANDLE's
// ckpt-info.json, Orbax's _CHECKPOINT_METADATA), its metrics (CANDLE:
// "best_so_far", the running best), "time_elapsed" and "model_mb" (model file
// size / 2^20), at the epoch's save time. Epochs are taken in time order (by
// number when a time is missing); a first save (CANDLE "__FIRST__") opens a new
// segment, guessed to have resumed from the epoch before it.
class EpochHistory
{
public:
    static HistoryFragment fromEpochs(const std::vector<Epoch>& epochs, std::string_view root);
};

} // namespace ckpt
