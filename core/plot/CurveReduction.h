#pragma once

#include "plot/Decimator.h"
#include "plot/PlotSeries.h"

namespace ckpt {

// What the plot hands its graphs for one curve: the line in the run's colour,
// the faded part (a dead end from its branch point on, or a whole branch) and,
// under smoothing, the faint raw copy. A long sorted series is reduced to the
// key window (Decimator, one bucket per pixel) through its summaries, in
// O(pixels log n); a short one is passed whole.
struct ReducedCurve
{
    Decimator::Output line;
    Decimator::Output tail;
    Decimator::Output raw;
    bool sorted = true; // keys ascending (always when reduced)
};

class CurveReduction
{
public:
    // Series longer than this are reduced to the window; shorter ones are
    // drawn as they are (the window does not matter for them).
    static constexpr int kReduceAbove = 4000;

    static bool reduces(const PlotSeries& series)
    {
        return series.size() > kReduceAbove && series.sorted();
    }
    // `own`: the run's own curve (a branch is faded as a whole).
    static ReducedCurve reduce(const PlotSeries& series, bool own, bool smoothing, double lower,
                               double upper, int buckets);
};

} // namespace ckpt
