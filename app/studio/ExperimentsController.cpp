#include "ExperimentsController.h"

#include "dialogs/LaunchDialog.h"
#include "experiments/ExperimentsPanel.h"
#include "layout/Layout.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QAction>
#include <QEvent>
#include <QLabel>
#include <QMainWindow>
#include <QSettings>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>

namespace ckpt {

namespace {
const char* const PanelKey = "experiments/panel";
} // namespace

ExperimentsController::ExperimentsController(const Parts& parts)
    : QObject(parts.window), m_parts(parts), m_panel(new ExperimentsPanel(parts.tabs))
{
    m_parts.tabs->addTab(m_panel, tr("E&xperiments"));
    m_panel->restoreState(QSettings().value(PanelKey).toByteArray());
    m_parts.window->installEventFilter(this);
    connect(m_parts.focusAction, &QAction::triggered, this, &ExperimentsController::focus);
    connect(m_panel, &ExperimentsPanel::showInBrowserRequested, this,
            &ExperimentsController::showInBrowser);
    connect(m_parts.workspace, &Workspace::runAdded, this, [this](const QString& root) {
        if (root != m_selectWhenAdded)
            return;
        m_selectWhenAdded.clear();
        m_parts.sidebar->selectRuns({root});
    });
}

void ExperimentsController::focus()
{
    m_parts.tabs->setCurrentWidget(m_panel);
    m_panel->table()->setFocus();
}

bool ExperimentsController::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_parts.window && event->type() == QEvent::Close)
        QSettings().setValue(PanelKey, m_panel->saveState());
    return QObject::eventFilter(watched, event);
}

void ExperimentsController::showInBrowser(const QString& root)
{
    if (m_parts.workspace->run(root)) {
        m_parts.sidebar->selectRuns({root});
        m_parts.sidebar->view()->setFocus();
        return;
    }
    // Not open yet: open the run's folder and select the run once it is scanned.
    m_selectWhenAdded = root;
    emit openRequested(
        {QString::fromStdString(LaunchPrep::runFolderOf(root.toStdString()).string())});
}

void ExperimentsController::launchFrom(LaunchPlan::Mode mode)
{
    Workspace* workspace = m_parts.workspace;
    const auto selected = m_parts.table->selectedEpochs();
    const Run* run = selected.size() == 1 ? workspace->run(selected.first().root) : nullptr;
    if (!run)
        return;
    const Layout* layout = layoutOf(*run);
    if (!layout || !layout->canRestart()) {
        m_parts.status->setText(tr("%1 runs cannot be restarted by Ckpt Studio.")
                                    .arg(QString::fromStdString(run->layout)));
        return;
    }
    PrepRequest request;
    request.runRoot = run->root;
    request.fromEpoch = selected.first().epoch;
    request.mode = mode;
    LaunchDialog dialog(std::move(request), m_parts.window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString root = dialog.launchedRoot();
    m_parts.status->setText(tr("Launched %1.").arg(root));
    m_parts.tabs->setCurrentWidget(m_panel);
    m_panel->showRun(root);
    // A fork outside every open folder is opened too, to be watched from its first epoch.
    const QStringList folders = workspace->folders();
    const bool watched = std::any_of(folders.begin(), folders.end(), [&](const QString& f) {
        return root.startsWith(f + QLatin1Char('/'));
    });
    if (!watched)
        emit openRequested(
            {QString::fromStdString(LaunchPrep::runFolderOf(root.toStdString()).string())});
}

} // namespace ckpt
