#include "common/Theme.h"

#include <QApplication>
#include <QPalette>
#include <QStyleFactory>

namespace ckpt {

void Theme::forceDark(QApplication& app)
{
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x30);
    // Fields a little lighter than the window: Fusion outlines check boxes
    // with a darker window colour, which must stand out from the field.
    const QColor base(0x36, 0x38, 0x3c);
    const QColor text(0xdf, 0xe1, 0xe5);
    const QColor disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x3c, 0x3f, 0x43));
    p.setColor(QPalette::ToolTipBase, window);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, QColor(0x58, 0x9d, 0xf6));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x3c, 0x3f, 0x41));
    p.setColor(QPalette::Dark, QColor(0x19, 0x1a, 0x1c));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x50));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    app.setPalette(p);
}

bool Theme::isDark()
{
    return QApplication::palette().color(QPalette::Base).lightness() < 128;
}

} // namespace ckpt
