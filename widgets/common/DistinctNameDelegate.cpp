#include "common/DistinctNameDelegate.h"

#include "common/DistinctElide.h"

#include <QApplication>
#include <QStyle>

namespace ckpt {

void DistinctNameDelegate::initStyleOption(QStyleOptionViewItem* option,
                                           const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const QAbstractItemModel* model = index.model();
    if (!model || option->text.isEmpty())
        return;
    QStringList siblings;
    for (int r = 0; r < model->rowCount(index.parent()); ++r)
        siblings << model->index(r, index.column(), index.parent()).data().toString();
    const QStyle* style = option->widget ? option->widget->style() : QApplication::style();
    // The width the style leaves for the text: the cell less its margins and icon.
    const int width =
        style->subElementRect(QStyle::SE_ItemViewItemText, option, option->widget).width() - 2;
    if (width <= 0)
        return;
    option->text = DistinctElide::elide(option->text, siblings, width, option->fontMetrics);
}

} // namespace ckpt
