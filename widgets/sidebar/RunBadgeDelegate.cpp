#include "sidebar/RunBadgeDelegate.h"

#include "common/Badges.h"
#include "common/DistinctElide.h"
#include "models/ModelRoles.h"
#include "models/RunTreeModel.h"

#include <QApplication>
#include <QPainter>

namespace ckpt {

namespace {
using Pill = Badges::Badge;

std::vector<Pill> localPillsFor(const QModelIndex& index);

// A remote folder or run: first whether what it shows is current (the alarm
// that must not be dropped), then a small remote mark, then the badges a local
// one has. The folder is named "host:folder"; details are in the tooltips.
std::vector<Pill> pillsFor(const QModelIndex& index)
{
    std::vector<Pill> pills;
    const bool folder =
        index.data(roles::NodeKindRole).toInt() == static_cast<int>(RunTreeModel::NodeKind::Folder);
    if (const QString stale = index.data(roles::StaleRole).toString(); !stale.isEmpty())
        pills.push_back({folder ? stale : QObject::tr("offline"), Badges::problemColor()});
    if (const QString host = index.data(roles::RemoteHostRole).toString(); !host.isEmpty())
        pills.push_back({QStringLiteral("⇄"), Badges::remoteColor()});
    for (Pill& p : localPillsFor(index))
        pills.push_back(std::move(p));
    return pills;
}

std::vector<Pill> localPillsFor(const QModelIndex& index)
{
    std::vector<Pill> pills;
    const int problems = index.data(roles::ProblemCountRole).toInt();
    if (problems > 0)
        pills.push_back({QString::number(problems) + QStringLiteral(" ⚠"), Badges::problemColor()});
    const auto checksum = static_cast<ChecksumState>(index.data(roles::ChecksumStateRole).toInt());
    // Folders only raise an alarm; "disabled" or "ok" there would be noise.
    const bool folder =
        index.data(roles::NodeKindRole).toInt() == static_cast<int>(RunTreeModel::NodeKind::Folder);
    if (folder && checksum < ChecksumState::Missing)
        return pills;
    // A run never verified says so (an outlined "? not verified", "?" when
    // narrow): a row without a badge would read as healthy. Pills that do not
    // fit are dropped from the end: an alarm (MISMATCH, unreadable, missing)
    // goes first so that it is the last to go.
    Pill pill = Badges::checksumBadge(checksum);
    if (checksum < ChecksumState::Missing) {
        pills.push_back(std::move(pill));
        return pills;
    }
    // Built anew rather than insert(begin()): GCC 12 at -O3 warns falsely on that.
    std::vector<Pill> alarmFirst;
    alarmFirst.reserve(pills.size() + 1);
    alarmFirst.push_back(std::move(pill));
    for (Pill& p : pills)
        alarmFirst.push_back(std::move(p));
    return alarmFirst;
}
} // namespace

void RunBadgeDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                             const QModelIndex& index) const
{
    if (index.column() != 0) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const auto pills = pillsFor(index);
    const bool live = index.data(roles::LiveRole).toBool();
    int reserved = live ? 14 : 0;
    for (const auto& p : pills)
        reserved += Badges::pillWidth(opt.font, p.shortText.isEmpty() ? p.text : p.shortText) + 4;
    const QString text = opt.text;
    opt.text.clear();
    QStyle* style = opt.widget ? opt.widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    QRect textRect = style->subElementRect(QStyle::SE_ItemViewItemText, &opt, opt.widget);
    // The name keeps up to 40% of the cell, shortened so that what tells it
    // from its siblings stays (a sweep's value, a fork's epoch); the badges get
    // the rest, and only those that still do not fit are dropped.
    const int fullWidth = opt.fontMetrics.horizontalAdvance(text);
    // A row that is not current gives more room to its "reconnecting" / "offline" pill.
    const bool stale = !index.data(roles::StaleRole).toString().isEmpty();
    const int share = stale ? 3 : 4;
    const int nameWidth = std::max(
        {20, textRect.width() - reserved, std::min(fullWidth, textRect.width() * share / 10)});
    reserved = std::max(0, textRect.width() - nameWidth);
    QStringList siblings;
    if (const QAbstractItemModel* model = index.model())
        for (int r = 0; r < model->rowCount(index.parent()); ++r)
            siblings << model->index(r, 0, index.parent()).data(Qt::DisplayRole).toString();
    const QString elided = DistinctElide::elide(text, siblings, nameWidth, opt.fontMetrics);
    painter->save();
    // A remote run that is not current is drawn faded: it may be out of date.
    painter->setPen(opt.palette.color(opt.state & QStyle::State_Selected ? QPalette::HighlightedText
                                      : stale                            ? QPalette::PlaceholderText
                                                                         : QPalette::Text));
    painter->drawText(textRect.adjusted(0, 0, -reserved, 0), Qt::AlignVCenter | Qt::AlignLeft,
                      elided);
    painter->restore();
    int x = textRect.left() + opt.fontMetrics.horizontalAdvance(elided) + 6;
    const QRect row(x, textRect.top(), textRect.right() - x, textRect.height());
    QRect slot = row;
    if (live) {
        Badges::paintDot(painter, slot, Badges::liveColor());
        slot.setLeft(slot.left() + 14);
    }
    const bool selected = opt.state & QStyle::State_Selected;
    for (Pill p : pills) {
        // A grey ring is lost on the selection colour: it takes the selected text's.
        if (selected && p.style == Badges::Style::Outline)
            p.color = opt.palette.color(QPalette::HighlightedText);
        const int w = Badges::paintBadge(painter, slot, p);
        if (w == 0)
            break;
        slot.setLeft(slot.left() + w + 4);
    }
}

QSize RunBadgeDelegate::sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == 0) {
        for (const auto& p : pillsFor(index))
            s.rwidth() += Badges::pillWidth(option.font, p.text) + 4;
        s.rwidth() += index.data(roles::LiveRole).toBool() ? 14 : 0;
        s.setHeight(std::max(s.height(), option.fontMetrics.height() + 8));
    }
    return s;
}

} // namespace ckpt
