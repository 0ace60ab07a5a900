#include "compare/DiffHighlightDelegate.h"

#include "common/Badges.h"
#include "models/ModelRoles.h"

namespace ckpt {

void DiffHighlightDelegate::initStyleOption(QStyleOptionViewItem* option,
                                            const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    if (!index.data(roles::DifferentRole).toBool())
        return;
    option->backgroundBrush = Badges::differenceBackground(option->palette);
    option->font.setBold(true);
}

} // namespace ckpt
