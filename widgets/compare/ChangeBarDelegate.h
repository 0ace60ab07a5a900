#pragma once

#include <QStyledItemDelegate>

namespace ckpt {

// Draws a cell's BarValueRole (a relative change) as a bar behind its text,
// the width on a log scale from 1e-6 (none) to 1 (full): changes spanning many
// decades stay comparable. Rows whose BadRole is true get a red tint mixed into
// the palette's base colour, so they read in light and in dark mode alike.
class ChangeBarDelegate final : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit ChangeBarDelegate(int barValueRole, int badRole, QObject* parent = nullptr);

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;

    // 0..1: the bar's share of the cell for a relative change.
    static double barFraction(double relChange);
    static QColor badBackground(const QPalette& palette);
    static QColor badText(const QPalette& palette);

private:
    int m_barRole;
    int m_badRole;
};

} // namespace ckpt
