#pragma once

#include <QStyledItemDelegate>

namespace ckpt {

// Draws a run's name followed by its badges: a green dot while live, a
// problem count, and its checksum state, from the RunTreeModel roles.
class RunBadgeDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace ckpt
