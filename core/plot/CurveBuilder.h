#pragma once

#include "model/MetricHistory.h"
#include "plot/MetricCurve.h"

#include <span>
#include <string_view>
#include <vector>

namespace ckpt {

// Splits one metric of a merged history into curves ready to plot: one per
// segment that recorded the metric, restarts anchored at the epoch they resumed
// from, and one join step per metric for the gap rule.
class CurveBuilder
{
public:
    // Curves in segment order. Each point takes the value from the richest source
    // of its row (HistoryRow::value).
    static std::vector<MetricCurve> build(const MetricHistory& history, std::string_view metric);

    // The gap rule. Epochs missing from a curve (pruned checkpoints, epochs never
    // logged) must not be bridged by a straight line that looks like data. The
    // regular spacing of a metric is the most common epoch step between
    // consecutive points over all its curves (anchors included; ties go to the
    // smaller step; 1 when there is no step at all). Points further apart than
    // that are not joined. Dense logs (every epoch) thus break at any missing
    // epoch; a metric logged every 5 epochs breaks only where 10 or more lie
    // between two points.
    static int joinStep(std::span<const MetricCurve> curves);
};

} // namespace ckpt
