#include "ExperimentsController.h"

#include "dialogs/LaunchDialog.h"
#include "experiments/ExperimentsPanel.h"
#include "launch/LocalLaunchSource.h"
#include "layout/Layout.h"
#include "remote/RemoteLaunchSource.h"
#include "session/RemoteFolders.h"
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
#include <QTimer>
#include <QTreeView>

namespace ckpt {

namespace {
const char* const PanelKey = "experiments/panel";
} // namespace

ExperimentsController::ExperimentsController(const Parts& parts)
    : QObject(parts.window), m_parts(parts), m_panel(new ExperimentsPanel(parts.tabs)),
      m_remoteRefresh(new QTimer(this))
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
    connect(m_parts.workspace, &Workspace::remoteFoldersChanged, this,
            &ExperimentsController::syncRemoteSources);
    // A folder going offline is not asked again until it is back.
    connect(m_parts.workspace, &Workspace::remoteConnectionChanged, this,
            &ExperimentsController::syncRemoteSources);
    // What a far folder's watch sees (a run appearing, an epoch saved) is
    // asked of the far `ckpt runs` soon, once for a burst of events.
    m_remoteRefresh->setSingleShot(true);
    m_remoteRefresh->setInterval(300);
    connect(m_remoteRefresh, &QTimer::timeout, m_panel, &ExperimentsPanel::refresh);
    connect(m_parts.workspace->remote(), &RemoteFolders::runsChanged, m_remoteRefresh,
            qOverload<>(&QTimer::start));
}

void ExperimentsController::syncRemoteSources()
{
    const RemoteFolders* remote = m_parts.workspace->remote();
    std::vector<RemoteRunsSource> sources;
    for (const QString& folder : remote->folders())
        if (const RemoteCkpt* client = remote->client(folder))
            sources.push_back({folder.toStdString(), remote->urlPrefix(folder).toStdString(),
                               *client,
                               remote->connection(folder) == RemoteFolders::Connection::Connected});
    m_panel->setRemoteSources(std::move(sources));
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
    emit openRequested({runFolderOf(root)});
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
    const QString root = selected.first().root;
    const int epoch = selected.first().epoch;
    LaunchChoice initial;
    initial.mode = mode;
    if (workspace->isRemote(root)) {
        const RemoteFolders* remote = workspace->remote();
        const QString folder = remote->folderOf(root);
        const RemoteCkpt* client = remote->client(folder);
        if (!client)
            return;
        runDialog(std::make_shared<RemoteLaunchSource>(*client, remote->farPath(root), epoch,
                                                       remote->urlPrefix(folder).toStdString()),
                  initial);
        return;
    }
    PrepRequest request;
    request.runRoot = run->root;
    request.fromEpoch = epoch;
    request.mode = mode;
    runDialog(std::make_shared<LocalLaunchSource>(std::move(request)), initial);
}

void ExperimentsController::runDialog(std::shared_ptr<const LaunchSource> source,
                                      const LaunchChoice& initial)
{
    LaunchDialog dialog(std::move(source), initial, m_parts.window);
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString root = dialog.launchedRoot();
    m_parts.status->setText(tr("Launched %1.").arg(root));
    m_parts.tabs->setCurrentWidget(m_panel);
    m_panel->showRun(root);
    // A fork outside every open folder is opened too, to be watched from its first epoch.
    const QStringList folders = m_parts.workspace->folders();
    const bool watched = std::any_of(folders.begin(), folders.end(), [&](const QString& f) {
        return root.startsWith(f + QLatin1Char('/'));
    });
    if (!watched)
        emit openRequested({runFolderOf(root)});
}

// The folder holding a run root (`ckpts`' parent), for a local path or an ssh:// URL.
QString ExperimentsController::runFolderOf(const QString& root)
{
    if (auto far = RemoteTarget::parse(root.toStdString());
        far && RemoteFolders::looksRemote(root)) {
        far->path = LaunchPrep::runFolderOf(far->path).string();
        return QString::fromStdString(far->url());
    }
    return QString::fromStdString(LaunchPrep::runFolderOf(root.toStdString()).string());
}

} // namespace ckpt
