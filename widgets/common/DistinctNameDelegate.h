#pragma once

#include <QStyledItemDelegate>

namespace ckpt {

// Draws a column of names shortened by DistinctElide: each keeps the part that
// tells it from the other rows of its column (a sweep's value, a fork's epoch)
// where a plain ellipsis would cut exactly there. The full name stays in the
// model's tooltip.
class DistinctNameDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace ckpt
