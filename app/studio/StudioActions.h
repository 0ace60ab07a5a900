#pragma once

#include <QHash>
#include <QObject>
#include <QStringList>

class QAction;
class QMainWindow;
class QMenu;

namespace ckpt {

// The studio's actions (names, texts, shortcuts), its menu bar and the Open
// Recent list. It decides nothing: MainWindow connects each action by name.
class StudioActions final : public QObject
{
    Q_OBJECT
public:
    // Actions are owned by and added to `window` (shortcuts work everywhere in it);
    // copy is the epoch table's; undo/redo are driven by UndoActions.
    StudioActions(QMainWindow* window, QAction* copy);

    QAction* action(const QString& name) const { return m_actions.value(name); }
    QStringList names() const { return m_actions.keys(); }
    void buildMenus();

    QStringList recent() const { return m_recent; }
    void setRecent(const QStringList& folders);
    void addRecent(const QStringList& folders);

signals:
    void recentChosen(const QString& folder);

private:
    void rebuildRecentMenu();

    QMainWindow* m_window;
    QHash<QString, QAction*> m_actions;
    QMenu* m_recentMenu = nullptr;
    QStringList m_recent;
};

} // namespace ckpt
