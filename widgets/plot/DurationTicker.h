#pragma once

#include <qcustomplot.h>

namespace ckpt {

// Ticks for "time since run start" (keys in hours) at steps a person counts in
// (1, 2, 5, 10, 15, 30 minutes; 1, 2, 3, 6, 12 hours; days), labelled h:mm.
class DurationTicker final : public QCPAxisTicker
{
public:
    // "0:00", "1:30", "26:05": hours and minutes; "-0:30" before the origin.
    static QString label(double hours);

protected:
    double getTickStep(const QCPRange& range) override;
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar,
                         int precision) override;
};

} // namespace ckpt
