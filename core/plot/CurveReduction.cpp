#include "plot/CurveReduction.h"

#include <algorithm>

namespace ckpt {

ReducedCurve CurveReduction::reduce(const PlotSeries& s, bool own, bool smoothing, double lower,
                                    double upper, int buckets)
{
    ReducedCurve out;
    out.sorted = s.sorted();
    const bool reduce = reduces(s);
    const auto put = [&](int from, int to, bool smoothed) {
        const QVector<double>& values = smoothed ? s.smoothed() : s.raw();
        if (!reduce)
            return Decimator::Output{s.keys().mid(from, to - from), values.mid(from, to - from)};
        const Decimator::Series series{s.keys(),          values, from, to, &s.summary(smoothed),
                                       s.breaks(smoothed)};
        return Decimator::m4(series, lower, upper, buckets);
    };
    // The dead end starts at the branch point so that it visibly leaves the curve
    // there; a branch is faded as a whole.
    const int split = !own ? 0 : s.supersededFrom() >= 0 ? s.supersededFrom() : s.size();
    out.line = put(0, split, smoothing);
    if (split < s.size())
        out.tail = put(std::max(0, split - 1), s.size(), smoothing);
    if (smoothing)
        out.raw = put(0, s.size(), false);
    return out;
}

} // namespace ckpt
