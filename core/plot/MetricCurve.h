#pragma once

#include "model/MetricHistory.h"

#include <optional>
#include <string>
#include <vector>

namespace ckpt {

struct CurvePoint
{
    int epoch = 0;
    double value = 0.0;             // as recorded: may be NaN or +/-inf
    std::optional<double> wallTime; // seconds since the Unix epoch
    MetricSource source = MetricSource::CkptInfo;
};

// The values of one metric over one segment (training process) of a run, in
// epoch order. A restarted segment is a branch: when `parentSegment` is set, the
// first point is the parent's point at the epoch the restart resumed from (the
// anchor), so the branch grows out of the curve it continued instead of
// zig-zagging back in time. The parent's later points (epochs the restart
// overwrote) stay in the parent as a dead end.
struct MetricCurve
{
    // What the curve shows: the run's own training (a segment), or one of its
    // HistoryBranches (BranchCurves): a restart's superseded epochs, or the
    // parent's epochs a fork continued from.
    enum class Kind
    {
        Own,
        Superseded,
        LeadIn
    };
    // Segment numbers of branch curves, below every real segment.
    static constexpr int kLeadInSegment = -1;
    static int supersededSegment(int branch) { return -2 - branch; }

    std::string metric;
    Kind kind = Kind::Own;
    int branch = -1; // index into MetricHistory::branches, for branch curves
    int segment = 0;
    std::optional<int> parentSegment; // set when points.front() is the anchor
    // Two consecutive points are joined by a line only when their epochs are at
    // most `joinStep` apart; see CurveBuilder::joinStep for the rule.
    int joinStep = 1;
    // Epochs after this one were trained again by a restart that branched off
    // here: the rest of this curve is a dead end (drawn faded).
    std::optional<int> supersededAfter;
    std::vector<CurvePoint> points;

    bool anchored() const { return parentSegment.has_value(); }
    // Whether a gap (a break in the line) comes before points[i].
    bool gapBefore(std::size_t i) const
    {
        return i > 0 && points[i].epoch - points[i - 1].epoch > joinStep;
    }
};

} // namespace ckpt
