#pragma once

#include "model/MetricHistory.h"
#include "plot/MetricCurve.h"

#include <string_view>
#include <vector>

namespace ckpt {

// Adds a run's HistoryBranches to the curves CurveBuilder made of one metric,
// so that each epoch is drawn once:
// - a fork's lead-in (the parent's epochs up to the fork epoch N) comes first
//   (segment kLeadInSegment); the run's own points before N (a copy of the
//   parent's log) are dropped, and its first curve is anchored at the lead-in's
//   point N (which replaces its own at N), so the fork grows out of its
//   parent's curve;
// - each superseded branch (what a restart from N moved aside) comes last
//   (segment supersededSegment(i)), anchored at the run's point N. It replaces
//   the dead end the run's own logs may still show for that restart (the
//   points after MetricCurve::supersededAfter); a restarted segment with no
//   point at N starts from the branch's value there.
// With `showSuperseded` off, superseded branches and every dead end are left out.
class BranchCurves
{
public:
    static void add(std::vector<MetricCurve>& curves, const MetricHistory& history,
                    std::string_view metric, bool showSuperseded);
};

} // namespace ckpt
