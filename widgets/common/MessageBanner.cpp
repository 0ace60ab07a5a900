#include "common/MessageBanner.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace ckpt {

MessageBanner::MessageBanner(QWidget* parent)
    : QFrame(parent), m_icon(new QLabel(this)), m_text(new QLabel(this)),
      m_buttonRow(new QHBoxLayout), m_close(new QToolButton(this))
{
    setObjectName(QStringLiteral("messageBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setFocusPolicy(Qt::StrongFocus);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    auto* column = new QVBoxLayout;
    column->addWidget(m_text);
    column->addLayout(m_buttonRow);
    layout->addLayout(column, 1);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_buttonRow->addStretch(1);
    m_close->setAutoRaise(true);
    m_close->setText(QStringLiteral("✕"));
    m_close->setToolTip(tr("Close this message (Esc)"));
    m_close->setAccessibleName(tr("Close message"));
    connect(m_close, &QToolButton::clicked, this, &MessageBanner::dismiss);
    setVisible(false);
}

void MessageBanner::showMessage(Kind kind, const QString& text, const QList<Button>& buttons,
                                const QString& topic)
{
    // (deleteLater: a button's own click may show the next message.)
    for (QToolButton* old : m_buttons) {
        old->hide();
        old->deleteLater();
    }
    m_buttons.clear();
    for (const Button& b : buttons) {
        auto* button = new QToolButton(this);
        button->setText(b.text);
        connect(button, &QToolButton::clicked, this, [this, run = b.run] {
            dismiss();
            if (run)
                run();
        });
        m_buttonRow->insertWidget(m_buttonRow->count() - 1, button);
        m_buttons << button;
    }
    m_topic = topic;
    m_text->setText(text);
    const bool error = kind == Kind::Error;
    const QStyle::StandardPixmap icon =
        error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxInformation;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    // A tint of the palette's own colours, readable on light and dark themes.
    QPalette p = parentWidget() ? parentWidget()->palette() : palette();
    const QColor tint = error ? QColor(0xd9, 0x53, 0x4f) : p.color(QPalette::Highlight);
    const QColor base = p.color(QPalette::Window);
    p.setColor(QPalette::Window, QColor::fromRgbF(base.redF() * 0.85f + tint.redF() * 0.15f,
                                                  base.greenF() * 0.85f + tint.greenF() * 0.15f,
                                                  base.blueF() * 0.85f + tint.blueF() * 0.15f));
    setPalette(p);
    setVisible(true);
}

void MessageBanner::dismissTopic(const QString& topic)
{
    if (isVisible() && m_topic == topic)
        dismiss();
}

void MessageBanner::dismiss()
{
    if (!isVisible())
        return;
    setVisible(false);
    m_topic.clear();
    emit dismissed();
}

QString MessageBanner::text() const
{
    return m_text->text();
}

void MessageBanner::keyPressEvent(QKeyEvent* event)
{
    if (event->key() == Qt::Key_Escape) {
        dismiss();
        return;
    }
    QFrame::keyPressEvent(event);
}

} // namespace ckpt
