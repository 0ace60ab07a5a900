#pragma once

#include <QStringList>

class QMainWindow;
class QSplitter;

namespace ckpt {

class EpochTableView;
class RunSidebar;

// What the window remembers between sessions (QSettings): geometry, dock
// state, splitters, the sidebar's header, hidden table columns, recent and
// open folders.
struct StudioSettings
{
    QMainWindow* window = nullptr;
    QSplitter* mainSplitter = nullptr;
    QSplitter* rightSplitter = nullptr;
    RunSidebar* sidebar = nullptr;
    EpochTableView* table = nullptr;

    // Restores the layout; returns the recent folders.
    QStringList restore() const;
    void save(const QStringList& recent, const QStringList& openFolders) const;

private:
    void applyFirstStartLayout() const;
};

} // namespace ckpt
