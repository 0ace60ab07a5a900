#pragma once

#include "plot/PlotSeries.h"

#include <QPointF>

#include <functional>

namespace ckpt {

// Finds the data entry of a series nearest to the mouse, in pixels, without
// walking the whole series: the key window under the pointer is found by binary
// search when the series is sorted.
class PointPicker
{
public:
    using ToPixel = std::function<QPointF(double key, double value)>;

    struct Hit
    {
        int entry = -1;          // data entry of the series, never a gap
        double distance = 0.0;   // pixels
        bool onSmoothed = false; // nearer to the smoothed curve than to the raw one
    };

    // Entries with keys in [keyLower, keyUpper] (the window of `radius` pixels
    // around `pos`) are candidates; the nearest one within `radius` wins. Raw and
    // smoothed positions are both tried when `smoothed` is true.
    static Hit nearest(const PlotSeries& series, QPointF pos, double radius, double keyLower,
                       double keyUpper, const ToPixel& toPixel, bool smoothed);
};

} // namespace ckpt
