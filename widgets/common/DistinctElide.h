#pragma once

#include <QString>
#include <QStringList>

#include <functional>

class QFontMetrics;

namespace ckpt {

// Shortens a name to a width so that the part telling it apart from its
// siblings stays visible. Runs of a sweep or forks differ in the middle or at
// the end ("RUN001-fork-e006-learning_rate-0.0003" and "...-0.001"): a plain
// end or middle ellipsis hides exactly that. The kept text is the name's
// start, an ellipsis, and the name from the start of its differing part (at a
// separator: - _ / = : , or space); when even that is too wide, the differing part
// itself is kept, elided at its end.
class DistinctElide
{
public:
    using Width = std::function<int(const QString&)>;

    // `siblings` may contain `name` itself (it is skipped once).
    static QString elide(const QString& name, const QStringList& siblings, int width,
                         const Width& widthOf);
    static QString elide(const QString& name, const QStringList& siblings, int width,
                         const QFontMetrics& metrics);
    // Where the part of `name` that differs from every sibling begins: after
    // the longest prefix it shares with one of them, moved back to a separator.
    static qsizetype distinctStart(const QString& name, const QStringList& siblings);
};

} // namespace ckpt
