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
        // Nothing to check: quiet grey text, not a badge. Never checked is an
        // outlined "? not verified", unlike the filled "✓ ok" in shape and words.
        if (state == ChecksumState::NoChecksum) {
            painter->save();
            painter->setPen(opt.palette.color(QPalette::PlaceholderText));
            painter->drawText(slot, Qt::AlignVCenter | Qt::AlignLeft, text);
            painter->restore();
        } else {
            Badges::Badge badge = Badges::checksumBadge(state);
            // A grey ring is lost on the selection colour: it takes the selected text's.
            if (opt.state & QStyle::State_Selected && badge.style == Badges::Style::Outline)
                badge.color = opt.palette.color(QPalette::HighlightedText);
            Badges::paintBadge(painter, slot, badge);
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

QSize EpochBadgeDelegate::sizeHint(const QStyleOptionViewItem& option,
                                   const QModelIndex& index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    const auto kind = static_cast<EpochTableModel::ColumnKind>(
        index.model()->headerData(index.column(), Qt::Horizontal, roles::ColumnKindRole).toInt());
    if (kind == EpochTableModel::ColumnKind::Checksum) {
        // The badge ("? not verified" with its symbol) is wider than the plain text.
        QFont bold = option.font;
        bold.setBold(true);
        const auto state = static_cast<ChecksumState>(index.data(roles::ChecksumStateRole).toInt());
        s.setWidth(
            std::max(s.width(), Badges::pillWidth(bold, Badges::checksumBadge(state).text) + 8));
    }
    return s;
}

} // namespace ckpt
