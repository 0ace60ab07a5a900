#pragma once

#include <QPoint>
#include <QWidget>

#include <utility>

namespace ckpt::test {

// The widget actually under `pos` of `widget` (the plot canvas), and `pos` in
// its coordinates: events go where a real pointer would deliver them.
inline std::pair<QWidget*, QPoint> under(QWidget& widget, QPoint pos)
{
    QWidget* target = widget.childAt(pos);
    Q_ASSERT(target);
    return {target, target->mapFrom(&widget, pos)};
}

} // namespace ckpt::test
