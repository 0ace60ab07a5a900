#include "common/Badges.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPalette>

namespace ckpt {

namespace {
constexpr int PadX = 6;
constexpr int PadY = 2;
} // namespace

Badges::Badge Badges::checksumBadge(ChecksumState state)
{
    switch (state) {
    case ChecksumState::Ok:
        return {QStringLiteral("✓ ") + checksumStateLabel(state), checksumColor(state)};
    case ChecksumState::Unknown:
        return {QStringLiteral("? ") + checksumStateLabel(state), QColor(0x80, 0x80, 0x80),
                Style::Outline, QStringLiteral("?")};
    default:
        return {checksumStateLabel(state), checksumColor(state)};
    }
}

QColor Badges::checksumColor(ChecksumState state)
{
    switch (state) {
    case ChecksumState::Ok:
        return QColor(0x2e, 0x8b, 0x3e);
    case ChecksumState::Mismatch:
        return QColor(0xc6, 0x28, 0x28);
    case ChecksumState::Missing:
    case ChecksumState::BadInfo:
    case ChecksumState::Error:
        return QColor(0xd0, 0x5a, 0x1c);
    case ChecksumState::Disabled:
    case ChecksumState::NoChecksum:
        return QColor(0x80, 0x80, 0x80);
    case ChecksumState::Changed: // amber: not yet known to be bad, no longer known good
        return QColor(0xc7, 0x8a, 0x00);
    case ChecksumState::Verifying:
        return QColor(0x2f, 0x6f, 0xd0);
    case ChecksumState::Unknown:
        break;
    }
    return {};
}

QColor Badges::differenceBackground(const QPalette& palette)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    return dark ? QColor(0x6a, 0x4a, 0x10) : QColor(0xff, 0xe9, 0xa8);
}

int Badges::pillWidth(const QFont& font, const QString& text)
{
    return QFontMetrics(font).horizontalAdvance(text) + 2 * PadX;
}

int Badges::paintPill(QPainter* painter, const QRect& rect, const QString& text,
                      const QColor& color, Style style)
{
    const bool outline = style == Style::Outline;
    QFont font = painter->font();
    font.setBold(!outline);
    font.setItalic(outline);
    const QFontMetrics fm(font);
    const int w = fm.horizontalAdvance(text) + 2 * PadX;
    const int h = std::min(rect.height() - 2, fm.height() + 2 * PadY);
    if (w > rect.width() || h <= 0)
        return 0;
    const QRect pill(rect.left(), rect.top() + (rect.height() - h) / 2, w, h);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    if (outline) {
        painter->setPen(QPen(color, 1));
        painter->setBrush(Qt::NoBrush);
        // Half a pixel in, so that the 1-pixel ring is crisp and inside the pill.
        painter->drawRoundedRect(QRectF(pill).adjusted(0.5, 0.5, -0.5, -0.5), h / 2.0 - 0.5,
                                 h / 2.0 - 0.5);
        painter->setPen(color);
    } else {
        painter->setPen(Qt::NoPen);
        painter->setBrush(color);
        painter->drawRoundedRect(pill, h / 2.0, h / 2.0);
        painter->setPen(Qt::white);
    }
    painter->setFont(font);
    painter->drawText(pill, Qt::AlignCenter, text);
    painter->restore();
    return w;
}

int Badges::paintBadge(QPainter* painter, const QRect& rect, const Badge& badge)
{
    if (const int w = paintPill(painter, rect, badge.text, badge.color, badge.style); w > 0)
        return w;
    if (badge.shortText.isEmpty())
        return 0;
    return paintPill(painter, rect, badge.shortText, badge.color, badge.style);
}

void Badges::paintDot(QPainter* painter, const QRect& rect, const QColor& color)
{
    const int d = std::min(rect.height(), 10);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(color);
    painter->drawEllipse(QRect(rect.left(), rect.top() + (rect.height() - d) / 2, d, d));
    painter->restore();
}

} // namespace ckpt
