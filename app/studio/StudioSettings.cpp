#include "StudioSettings.h"

#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QSplitter>

#include <algorithm>

namespace ckpt {

QStringList StudioSettings::restore() const
{
    QSettings s;
    if (!window->restoreGeometry(s.value("window/geometry").toByteArray()))
        applyFirstStartLayout();
    window->restoreState(s.value("window/state").toByteArray());
    mainSplitter->restoreState(s.value("window/mainSplitter").toByteArray());
    rightSplitter->restoreState(s.value("window/rightSplitter").toByteArray());
    sidebar->restoreState(s.value("sidebar/header").toByteArray());
    table->setHiddenColumns(s.value("table/hiddenColumns").toStringList());
    return s.value("recentFolders").toStringList();
}

void StudioSettings::applyFirstStartLayout() const
{
    // A first start (or a bare X server) would otherwise open at the widgets'
    // minimum size, with run names elided in a narrow sidebar.
    const QScreen* screen = window->screen();
    const QSize available = screen ? screen->availableGeometry().size() : QSize(1400, 900);
    const QSize size = QSize(1400, 900).boundedTo(available * 0.9);
    window->resize(size);
    const int side = std::clamp(size.width() * 2 / 7, 360, 440);
    mainSplitter->setSizes({side, size.width() - side});
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
