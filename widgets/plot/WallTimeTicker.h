#pragma once

#include <qcustomplot.h>

namespace ckpt {

// Date/time ticks (keys in seconds since the Unix epoch, local time) whose
// labels fit the span shown: "14:05" within a day, "Mon 14:05" within a week,
// "Nov 22" within a year, "Nov 2026" beyond.
class WallTimeTicker final : public QCPAxisTickerDateTime
{
public:
    static QString formatFor(double spanSeconds);

    void generate(const QCPRange& range, const QLocale& locale, QChar formatChar, int precision,
                  QVector<double>& ticks, QVector<double>* subTicks,
                  QVector<QString>* tickLabels) override;
};

} // namespace ckpt
