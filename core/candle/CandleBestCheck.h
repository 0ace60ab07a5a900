#pragma once

#include "model/Run.h"

#include <optional>
#include <string_view>

namespace ckpt {

// Checks that `best` points at the epoch that first recorded the best value of
// the monitored metric. best_metric_last is a running best, so the epoch that
// improved is the earliest one carrying the extreme value; later epochs carry
// the same value until the next improvement (CANDLE improves on strict < / >,
// so an equal later value is never a new best).
class CandleBestCheck
{
public:
    // loss, val_loss, lr, *error*, mae, mse: lower is better; accuracy-like
    // (acc, auc, precision, recall, f1, r2): higher is better.
    static bool lowerIsBetter(std::string_view metric);

    // The epoch that holds the best recorded value, if the infos tell: only
    // finite values count (+inf means "nothing improved yet", NaN is no value).
    static std::optional<int> bestEpoch(const Run& run, std::string_view metric);

    // A BestNotAtBest problem, or nullopt when `best` is fine, absent or unresolved.
    static std::optional<Problem> check(const Run& run);
};

} // namespace ckpt
