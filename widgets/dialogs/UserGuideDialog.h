#pragma once

#include <QDialog>

class QTextBrowser;

namespace ckpt {

// Help ▸ User Guide: the local Markdown guide (docs/user-guide.md) in a
// browser that can open at the section about what the user is looking at.
class UserGuideDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit UserGuideDialog(QWidget* parent = nullptr);

    // Shows `file` (Markdown; images and links relative to its folder).
    // False, with the reason shown in the dialog, when it cannot be read.
    bool load(const QString& file);
    // Says that no guide was found and every place that was searched.
    void showNotFound(const QStringList& lookedIn);
    // Scrolls to the first heading that contains the first of `keywords` any
    // heading contains (case-insensitive, from the start of a word); to the top
    // when none does. Returns the heading's text, or empty.
    QString showSection(const QStringList& keywords);

    QString file() const { return m_file; }
    QTextBrowser* browser() const { return m_browser; }
    // The heading of the section at the top of the view (empty above the first).
    QString currentHeading() const;

private:
    QTextBrowser* m_browser;
    QString m_file;
};

} // namespace ckpt
