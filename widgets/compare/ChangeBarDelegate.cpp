#include "compare/ChangeBarDelegate.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ckpt {

namespace {

bool darkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

} // namespace

ChangeBarDelegate::ChangeBarDelegate(int barValueRole, int badRole, QObject* parent)
    : QStyledItemDelegate(parent), m_barRole(barValueRole), m_badRole(badRole)
{}

double ChangeBarDelegate::barFraction(double relChange)
{
    if (std::isnan(relChange) || relChange <= 0.0)
        return 0.0;
    constexpr double kLow = -6.0; // 1e-6: below this a change is noise
    constexpr double kHigh = 0.0; // 1: the tensor moved by its own size
    return std::clamp((std::log10(relChange) - kLow) / (kHigh - kLow), 0.0, 1.0);
}

QColor ChangeBarDelegate::badBackground(const QPalette& palette)
{
    return mix(palette.color(QPalette::Base), QColor(220, 40, 40),
               darkPalette(palette) ? 0.35 : 0.18);
}

QColor ChangeBarDelegate::badText(const QPalette& palette)
{
    return darkPalette(palette) ? QColor(255, 150, 150) : QColor(170, 0, 0);
}

void ChangeBarDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const
{
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const bool bad = index.data(m_badRole).toBool();
    const bool selected = opt.state & QStyle::State_Selected;
    if (bad && !selected) {
        painter->fillRect(opt.rect, badBackground(opt.palette));
        opt.palette.setColor(QPalette::Text, badText(opt.palette));
        opt.backgroundBrush = Qt::NoBrush;
    }
    const QVariant bar = index.data(m_barRole);
    if (bar.isValid() && !selected) {
        const double fraction = barFraction(bar.toDouble());
        if (fraction > 0.0) {
            QRect r = opt.rect.adjusted(2, 3, -2, -3);
            r.setWidth(std::max(1, int(r.width() * fraction)));
            QColor colour = opt.palette.color(QPalette::Highlight);
            colour.setAlpha(darkPalette(opt.palette) ? 110 : 80);
            painter->fillRect(r, colour);
        }
    }
    QStyledItemDelegate::paint(painter, opt, index);
}

} // namespace ckpt
