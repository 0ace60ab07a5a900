#pragma once

#include "models/ChecksumState.h"

#include <QColor>
#include <QRect>
#include <QString>

#include <utility>

class QPainter;
class QPalette;
class QFont;

namespace ckpt {

// Small rounded labels ("last", "best", "3 problems", checksum verdicts) drawn
// by the delegates. Colours are saturated mid-tones with white text so they
// read on light and dark palettes alike.
class Badges
{
public:
    // How a badge is drawn: Filled states a verdict; Outline (grey italic
    // text in a ring) marks the absence of one, so "never verified" can never
    // be mistaken for "ok" by colour, shape, symbol or text.
    enum class Style
    {
        Filled,
        Outline
    };
    struct Badge
    {
        Badge(QString text_, QColor color_, Style style_ = Style::Filled, QString shortText_ = {})
            : text(std::move(text_)), color(color_), style(style_), shortText(std::move(shortText_))
        {}
        QString text;
        QColor color;
        Style style;
        QString shortText; // drawn when `text` does not fit; empty: dropped instead
    };
    // The checksum badge: "✓ ok", "? not verified" (outline), "MISMATCH", ...
    static Badge checksumBadge(ChecksumState state);

    static QColor checksumColor(ChecksumState state);
    static QColor lastColor() { return QColor(0x2f, 0x6f, 0xd0); }
    static QColor bestColor() { return QColor(0xb8, 0x86, 0x0b); }
    static QColor problemColor() { return QColor(0xd0, 0x5a, 0x1c); }
    static QColor liveColor() { return QColor(0x1f, 0xa0, 0x4a); }
    static QColor remoteColor() { return QColor(0x5a, 0x6b, 0x8c); }
    // A highlight for "this differs" rows that fits the palette (light or dark).
    static QColor differenceBackground(const QPalette& palette);

    static int pillWidth(const QFont& font, const QString& text);
    // Draws one pill at the left of `rect`, returns its width (0 if it did not fit).
    static int paintPill(QPainter* painter, const QRect& rect, const QString& text,
                         const QColor& color, Style style = Style::Filled);
    // `badge.text`, else its short text when only that fits; 0 when neither does.
    static int paintBadge(QPainter* painter, const QRect& rect, const Badge& badge);
    static void paintDot(QPainter* painter, const QRect& rect, const QColor& color);
};

} // namespace ckpt
