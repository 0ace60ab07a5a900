#include "plot/AxisFit.h"

#include <cmath>

namespace ckpt {

SeriesRange AxisFit::keys(const SeriesRange& data, PlotXAxis axis)
{
    if (!data.valid())
        return axis == PlotXAxis::Epoch ? SeriesRange{0.0, 10.0} : SeriesRange{0.0, 1.0};
    const double span = data.upper - data.lower;
    if (span > 0.0)
        return {data.lower - 0.02 * span, data.upper + 0.02 * span};
    const double half = axis == PlotXAxis::Epoch      ? 1.0
                        : axis == PlotXAxis::WallTime ? 60.0
                                                      : 1.0 / 60.0;
    return {data.lower - half, data.upper + half};
}

SeriesRange AxisFit::values(const SeriesRange& data, bool logY)
{
    if (logY) {
        if (!data.valid() || data.lower <= 0.0)
            return {0.1, 10.0};
        if (data.upper > data.lower) {
            const double pad = std::pow(data.upper / data.lower, 0.05);
            return {data.lower / pad, data.upper * pad};
        }
        return {data.lower / 2.0, data.upper * 2.0};
    }
    if (!data.valid())
        return {0.0, 1.0};
    const double span = data.upper - data.lower;
    if (span > 0.0)
        return {data.lower - 0.05 * span, data.upper + 0.05 * span};
    const double half = data.lower == 0.0 ? 1.0 : std::abs(data.lower) * 0.1;
    return {data.lower - half, data.upper + half};
}

} // namespace ckpt
