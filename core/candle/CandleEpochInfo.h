#pragma once

#include "candle/CkptInfo.h"
#include "model/Epoch.h"

#include <optional>
#include <string>

namespace ckpt {

// Moves a parsed ckpt-info.json into the layout-neutral Epoch (saved time,
// elapsed, restart boundary, monitored metric, best-so-far, the model file's
// expected CRC-32, every key as metadata) and reads it back for the CANDLE code
// that needs the record itself.
class CandleEpochInfo
{
public:
    // best_metric_last becomes the epoch's metric ckpt::kBestSoFar.

    static void apply(const CkptInfo& info, Epoch& epoch);
    // The ckpt-info.json the epoch was read from; nullopt when it had none.
    static std::optional<CkptInfo> of(const Epoch& epoch);
};

} // namespace ckpt
