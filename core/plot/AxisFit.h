#pragma once

#include "plot/PlotSeries.h"

namespace ckpt {

// Axis ranges that frame the data with a little air, including the degenerate
// cases (a single point, a flat line) where a zero-width range would hide it.
class AxisFit
{
public:
    static SeriesRange keys(const SeriesRange& data, PlotXAxis axis);
    // On a log axis the padding is a factor and the range stays positive.
    static SeriesRange values(const SeriesRange& data, bool logY);
};

} // namespace ckpt
