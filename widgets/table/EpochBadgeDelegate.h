#pragma once

#include <QStyledItemDelegate>

namespace ckpt {

class EpochTableModel;

// Paints the checksum, links and problems columns of the epoch table as
// coloured badges; other columns draw as usual.
class EpochBadgeDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    EpochBadgeDelegate(const EpochTableModel* model, QObject* parent);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    const EpochTableModel* m_model;
};

} // namespace ckpt
