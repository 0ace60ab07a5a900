#pragma once

#include <QStyledItemDelegate>

namespace ckpt {

// Paints rows whose two sides differ (roles::DifferentRole) on a highlight
// that suits the current palette, and their text bold.
class DiffHighlightDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;
};

} // namespace ckpt
