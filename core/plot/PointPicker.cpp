#include "plot/PointPicker.h"

#include <algorithm>
#include <cmath>

namespace ckpt {

PointPicker::Hit PointPicker::nearest(const PlotSeries& series, QPointF pos, double radius,
                                      double keyLower, double keyUpper, const ToPixel& toPixel,
                                      bool smoothed)
{
    Hit best;
    const auto& keys = series.keys();
    int begin = 0;
    int end = int(keys.size());
    if (series.sorted()) {
        begin = int(std::lower_bound(keys.begin(), keys.end(), keyLower) - keys.begin());
        end = int(std::upper_bound(keys.begin(), keys.end(), keyUpper) - keys.begin());
    }
    double bestDistance = radius;
    const auto consider = [&](int i, double value, bool onSmoothed) {
        if (!std::isfinite(value))
            return;
        const QPointF p = toPixel(keys[i], value);
        const double d = std::hypot(p.x() - pos.x(), p.y() - pos.y());
        if (d <= bestDistance) {
            bestDistance = d;
            best = Hit{i, d, onSmoothed};
        }
    };
    for (int i = begin; i < end; ++i) {
        if (series.curvePoint(i) == PlotSeries::Gap || keys[i] < keyLower || keys[i] > keyUpper)
            continue;
        consider(i, series.raw()[i], false);
        if (smoothed)
            consider(i, series.smoothed()[i], true);
    }
    return best;
}

} // namespace ckpt
