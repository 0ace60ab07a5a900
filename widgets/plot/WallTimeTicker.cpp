#include "plot/WallTimeTicker.h"

namespace ckpt {

QString WallTimeTicker::formatFor(double spanSeconds)
{
    constexpr double kDay = 86400.0;
    if (spanSeconds <= 2 * 60.0)
        return QStringLiteral("hh:mm:ss");
    if (spanSeconds <= kDay)
        return QStringLiteral("hh:mm");
    if (spanSeconds <= 7 * kDay)
        return QStringLiteral("ddd hh:mm");
    if (spanSeconds <= 365 * kDay)
        return QStringLiteral("MMM d");
    return QStringLiteral("MMM yyyy");
}

void WallTimeTicker::generate(const QCPRange& range, const QLocale& locale, QChar formatChar,
                              int precision, QVector<double>& ticks, QVector<double>* subTicks,
                              QVector<QString>* tickLabels)
{
    setDateTimeFormat(formatFor(range.size()));
    QCPAxisTickerDateTime::generate(range, locale, formatChar, precision, ticks, subTicks,
                                    tickLabels);
}

} // namespace ckpt
