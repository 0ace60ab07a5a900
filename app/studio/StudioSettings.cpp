#include "StudioSettings.h"

#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QMainWindow>
#include <QSettings>
#include <QSplitter>

namespace ckpt {

QStringList StudioSettings::restore() const
{
    QSettings s;
    window->restoreGeometry(s.value("window/geometry").toByteArray());
    window->restoreState(s.value("window/state").toByteArray());
    mainSplitter->restoreState(s.value("window/mainSplitter").toByteArray());
    rightSplitter->restoreState(s.value("window/rightSplitter").toByteArray());
    sidebar->restoreState(s.value("sidebar/header").toByteArray());
    table->setHiddenColumns(s.value("table/hiddenColumns").toStringList());
    return s.value("recentFolders").toStringList();
}

void StudioSettings::save(const QStringList& recent, const QStringList& openFolders) const
{
    QSettings s;
    s.setValue("window/geometry", window->saveGeometry());
    s.setValue("window/state", window->saveState());
    s.setValue("window/mainSplitter", mainSplitter->saveState());
    s.setValue("window/rightSplitter", rightSplitter->saveState());
    s.setValue("sidebar/header", sidebar->saveState());
    s.setValue("table/hiddenColumns", table->hiddenColumns());
    s.setValue("recentFolders", recent);
    s.setValue("session/folders", openFolders);
}

} // namespace ckpt
