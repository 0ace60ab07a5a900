#include "common/DistinctElide.h"

#include <QFontMetrics>

namespace ckpt {

namespace {
const QString kEllipsis = QStringLiteral("…");

// Not '.': it sits inside the numbers sweeps vary ("0.0003").
bool isSeparator(QChar c)
{
    return c == u'-' || c == u'_' || c == u'/' || c == u'=' || c == u' ' || c == u':' || c == u',';
}
} // namespace

qsizetype DistinctElide::distinctStart(const QString& name, const QStringList& siblings)
{
    qsizetype shared = 0;
    bool skippedSelf = false;
    for (const QString& other : siblings) {
        if (other == name && !skippedSelf) {
            skippedSelf = true;
            continue;
        }
        qsizetype n = 0;
        const qsizetype limit = std::min(name.size(), other.size());
        while (n < limit && name[n] == other[n])
            ++n;
        shared = std::max(shared, n);
    }
    // Back to the start of the token the difference falls in ("0.0003", not "03").
    while (shared > 0 && !isSeparator(name[shared - 1]))
        --shared;
    return shared;
}

QString DistinctElide::elide(const QString& name, const QStringList& siblings, int width,
                             const Width& widthOf)
{
    if (widthOf(name) <= width)
        return name;
    const qsizetype start = distinctStart(name, siblings);
    const QString tail = name.mid(start);
    if (start == 0 || widthOf(kEllipsis + tail) > width) {
        // The differing part alone is too wide (or it is the whole name):
        // keep its beginning, where siblings differ first.
        QString kept = tail;
        while (!kept.isEmpty() &&
               widthOf((start > 0 ? kEllipsis : QString()) + kept + kEllipsis) > width)
            kept.chop(1);
        return (start > 0 ? kEllipsis : QString()) + kept + kEllipsis;
    }
    // The differing part whole; as much of the name's start as fits before it.
    qsizetype head = 0;
    while (head < start && widthOf(name.left(head + 1) + kEllipsis + tail) <= width)
        ++head;
    return name.left(head) + kEllipsis + tail;
}

QString DistinctElide::elide(const QString& name, const QStringList& siblings, int width,
                             const QFontMetrics& metrics)
{
    return elide(name, siblings, width,
                 [&metrics](const QString& text) { return metrics.horizontalAdvance(text); });
}

} // namespace ckpt
