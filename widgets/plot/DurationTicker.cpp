#include "plot/DurationTicker.h"

#include <cmath>

namespace ckpt {

QString DurationTicker::label(double hours)
{
    const long long minutes = std::llround(std::fabs(hours) * 60.0);
    return QStringLiteral("%1%2:%3")
        .arg(hours < 0 && minutes > 0 ? QStringLiteral("-") : QString())
        .arg(minutes / 60)
        .arg(minutes % 60, 2, 10, QLatin1Char('0'));
}

double DurationTicker::getTickStep(const QCPRange& range)
{
    // Steps in minutes, about mTickCount ticks over the range.
    static const double kSteps[] = {1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080};
    const double wanted = range.size() * 60.0 / std::max(1, tickCount());
    for (double step : kSteps)
        if (step >= wanted)
            return step / 60.0;
    return cleanMantissa(wanted / 1440.0) * 1440.0 / 60.0; // whole days beyond a week
}

QString DurationTicker::getTickLabel(double tick, const QLocale&, QChar, int)
{
    return label(tick);
}

} // namespace ckpt
