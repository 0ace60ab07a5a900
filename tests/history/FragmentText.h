#pragma once

// Renders parser output as short text so data-driven tables can state the whole
// expected result in one string.

#include "history/HistoryFragment.h"
#include "history/NumberText.h"

#include <QString>
#include <QStringList>

namespace ckpt::test {

// "S0[fresh,stated] S1[8,stated]"
inline QString segmentsText(const HistoryFragment& f)
{
    QStringList out;
    for (std::size_t i = 0; i < f.segments.size(); ++i) {
        const auto& s = f.segments[i];
        const char* evidence = s.evidence == ResumeEvidence::Stated    ? "stated"
                               : s.evidence == ResumeEvidence::Guessed ? "guessed"
                                                                       : "unknown";
        out << QStringLiteral("S%1[%2,%3]")
                   .arg(i)
                   .arg(s.resumedFrom ? QString::number(*s.resumedFrom) : QStringLiteral("fresh"))
                   .arg(QLatin1String(evidence));
    }
    return out.join(' ');
}

// "0:1:loss=0.5 0:1:val_loss=nan": segment:epoch:metric=value in source order.
inline QString samplesText(const HistoryFragment& f)
{
    QStringList out;
    for (const auto& s : f.samples)
        out << QStringLiteral("%1:%2:%3=%4")
                   .arg(s.segment)
                   .arg(s.epoch)
                   .arg(QString::fromStdString(s.sample.metric))
                   .arg(QString::fromStdString(NumberText::format(s.sample.value)));
    return out.join(' ');
}

// "training.log:3 training.log:4": where each problem is, from its message.
inline QString problemsText(const HistoryFragment& f)
{
    QStringList out;
    for (const auto& p : f.problems) {
        const auto cut = p.message.find(": ");
        out << QString::fromStdString(p.message.substr(0, cut));
    }
    return out.join(' ');
}

} // namespace ckpt::test
