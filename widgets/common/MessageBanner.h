#pragma once

#include <QFrame>
#include <QList>

#include <functional>

class QHBoxLayout;
class QLabel;
class QToolButton;

namespace ckpt {

// An inline message above the window's content, for what the user must read
// and may act on (a remote folder that cannot be opened): the whole text,
// wrapped and selectable, with buttons for the given actions and a close
// button (Esc while it has focus). Not modal: work goes on around it.
class MessageBanner final : public QFrame
{
    Q_OBJECT
public:
    enum class Kind
    {
        Information,
        Error,
    };

    // A button under the text: the banner closes, then `run` is called.
    struct Button
    {
        QString text;
        std::function<void()> run;
    };

    explicit MessageBanner(QWidget* parent = nullptr);

    // Shows `text` with its buttons, replacing what was shown. `topic` names
    // what it is about, for dismissTopic().
    void showMessage(Kind kind, const QString& text, const QList<Button>& buttons = {},
                     const QString& topic = {});
    // Hides the banner if it is about `topic`.
    void dismissTopic(const QString& topic);
    void dismiss();

    QString text() const;
    QString topic() const { return m_topic; }
    QList<QToolButton*> buttons() const { return m_buttons; }
    QToolButton* closeButton() const { return m_close; }

signals:
    void dismissed();

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    QLabel* m_icon;
    QLabel* m_text;
    QHBoxLayout* m_buttonRow;
    QToolButton* m_close;
    QList<QToolButton*> m_buttons;
    QString m_topic;
};

} // namespace ckpt
