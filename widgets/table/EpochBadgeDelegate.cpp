#include "table/EpochBadgeDelegate.h"

#include "common/Badges.h"
#include "models/EpochTableModel.h"
#include "models/ModelRoles.h"

#include <QApplication>
#include <QPainter>

namespace ckpt {

EpochBadgeDelegate::EpochBadgeDelegate(const EpochTableModel* model, QObject* parent)
    : QStyledItemDelegate(parent), m_model(model)
{}

void EpochBadgeDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                               const QModelIndex& index) const
{
    using K = EpochTableModel::ColumnKind;
    const auto kind = static_cast<K>(
        index.model()->headerData(index.column(), Qt::Horizontal, roles::ColumnKindRole).toInt());
    if (kind != K::Checksum && kind != K::Links && kind != K::ProblemList) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    QRect slot = opt.rect.adjusted(4, 1, -2, -1);
    if (kind == K::Checksum) {
        const auto state = static_cast<ChecksumState>(index.data(roles::ChecksumStateRole).toInt());
        // Nothing checked yet, or nothing to check: quiet grey text, not a badge.
        if (state == ChecksumState::Unknown || state == ChecksumState::NoChecksum) {
            painter->save();
            painter->setPen(opt.palette.color(QPalette::PlaceholderText));
            painter->drawText(slot, Qt::AlignVCenter | Qt::AlignLeft, text);
            painter->restore();
        } else {
            Badges::paintPill(painter, slot, text, Badges::checksumColor(state));
        }
    } else if (kind == K::Links) {
        if (index.data(roles::IsLastRole).toBool())
            slot.setLeft(
                slot.left() +
                Badges::paintPill(painter, slot, QStringLiteral("last"), Badges::lastColor()) + 4);
        if (index.data(roles::IsBestRole).toBool())
            Badges::paintPill(painter, slot, QStringLiteral("best"), Badges::bestColor());
    } else if (!text.isEmpty()) {
        Badges::paintPill(painter, slot, text + QStringLiteral(" ⚠"), Badges::problemColor());
    }
    (void)m_model;
}

} // namespace ckpt
