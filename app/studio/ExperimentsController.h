#pragma once

#include "launch/LaunchPlan.h"
#include "launch/LaunchSource.h"

#include <QObject>
#include <QStringList>

#include <memory>

class QAction;
class QLabel;
class QMainWindow;
class QTabWidget;
class QTimer;

namespace ckpt {

class EpochTableView;
class ExperimentsPanel;
class RunSidebar;
class Workspace;

// Wires the experiment manager into the window: the Experiments tab (Ctrl+4)
// with its panel, Restart/Fork from the selected epoch through LaunchDialog
// (the launched run shows in the panel at once, selected, its log followed;
// a run of a folder opened over ssh is restarted or forked on its far host),
// and "Show in Browser" (the run's folder opened if needed, the run selected
// in the sidebar). The panel's layout is remembered when the window closes.
class ExperimentsController final : public QObject
{
    Q_OBJECT
public:
    struct Parts
    {
        QMainWindow* window = nullptr;
        Workspace* workspace = nullptr;
        RunSidebar* sidebar = nullptr;
        EpochTableView* table = nullptr;
        QTabWidget* tabs = nullptr;
        QLabel* status = nullptr;
        QAction* focusAction = nullptr; // Go to Experiments
    };
    explicit ExperimentsController(const Parts& parts);

    ExperimentsPanel* panel() const { return m_panel; }
    // Restart/fork from the selected epoch, on this machine or, for a run of
    // a folder opened over ssh, on its far host (the dialog asks the far ckpt).
    void launchFrom(LaunchPlan::Mode mode);
    void showInBrowser(const QString& root);
    // The panel lists the runs launched on the hosts of the open far folders.
    void syncRemoteSources();

signals:
    // Folders the window should open (a fork outside the open folders).
    void openRequested(const QStringList& folders);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void focus();
    // The dialog for `source`; the launched run is shown, its folder opened
    // when no open folder holds it.
    void runDialog(std::shared_ptr<const LaunchSource> source, const LaunchChoice& initial);
    static QString runFolderOf(const QString& root);

    Parts m_parts;
    ExperimentsPanel* m_panel;
    QString m_selectWhenAdded;
    QTimer* m_remoteRefresh;
};

} // namespace ckpt
