#pragma once

#include <QObject>
#include <QStringList>

class QTabWidget;

namespace ckpt {

class ShortcutsDialog;
class UserGuideDialog;

// The Help menu: the keyboard shortcuts read from the window's actions, the
// local user guide opened at the section about the current view, About.
class HelpActions final : public QObject
{
    Q_OBJECT
public:
    struct Parts
    {
        QWidget* window;
        QTabWidget* tabs;
        QWidget* plot;
        QWidget* sidebar;
    };
    HelpActions(const Parts& parts, QObject* parent);

    void showShortcuts();
    // Opens the guide at the section about the focused view (F1).
    void showUserGuide();
    void showAbout();

    // Where the guide is looked for, in order: $CKPT_DOCS_DIR alone when set;
    // else the installed share/doc/ckpt-studio next to the program, the XDG
    // data folders, and this source tree's docs/.
    static QStringList guideFolders();
    // Heading keywords for what the user is looking at, most specific first.
    QStringList currentTopic() const;

private:
    Parts m_parts;
    // Made on first use, owned by the window (kept: reopened where they were).
    ShortcutsDialog* m_shortcuts = nullptr;
    UserGuideDialog* m_guide = nullptr;
};

} // namespace ckpt
