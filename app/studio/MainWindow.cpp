#include "MainWindow.h"

#include "CsvExport.h"
#include "EpochActions.h"
#include "ExperimentsController.h"
#include "FolderDrop.h"
#include "HelpActions.h"
#include "PlotSync.h"
#include "PruneCommand.h"
#include "RelinkCommand.h"
#include "RemoteActions.h"
#include "StudioActions.h"
#include "StudioSettings.h"
#include "UndoActions.h"
#include "VerifyProgress.h"
#include "common/MessageBanner.h"
#include "common/ProgressStrip.h"
#include "compare/CompareView.h"
#include "layout/Layout.h"
#include "model/ModelInspectorDialog.h"
#include "models/CompareModel.h"
#include "models/EpochTableModel.h"
#include "models/ProblemsModel.h"
#include "models/RunTreeModel.h"
#include "ops/LinkState.h"
#include "ops/Relinker.h"
#include "plot/MetricPlot.h"
#include "plotpanel/PlotPanel.h"
#include "problems/ProblemsPanel.h"
#include "session/RemoteFolders.h"
#include "session/RemoteOperations.h"
#include "session/RunOperations.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QAction>
#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace ckpt {

MainWindow::MainWindow(Workspace* workspace, QWidget* parent)
    : QMainWindow(parent), m_workspace(workspace), m_compareModel(new CompareModel(this)),
      m_sidebar(new RunSidebar(this)), m_table(new EpochTableView(this)),
      m_plotPanel(new PlotPanel(this)), m_problemsPanel(new ProblemsPanel(this)),
      m_compareView(new CompareView(this)), m_progress(new ProgressStrip(this)),
      m_status(new QLabel(this)), m_banner(new MessageBanner(this)),
      m_mainSplitter(new QSplitter(Qt::Horizontal, this)),
      m_rightSplitter(new QSplitter(Qt::Vertical, this)), m_tabs(new QTabWidget(this)),
      m_undo(new QUndoStack(this)), m_plotSync(new PlotSync(workspace, m_plotPanel, this))
{
    setWindowTitle(tr("Ckpt Studio"));
    auto* drop = new FolderDrop(this);
    connect(drop, &FolderDrop::foldersDropped, this, &MainWindow::openFolders);
    connect(drop, &FolderDrop::modelDropped, this,
            [this](const QString& path) { ModelInspectorDialog::showFile(path, this); });
    m_sidebar->setModel(workspace->runTree());
    m_table->setModel(workspace->epochTable());
    m_problemsPanel->setModel(workspace->problems());
    m_compareView->setModel(m_compareModel);

    m_tabs->addTab(m_table, tr("Ep&ochs"));
    m_tabs->addTab(m_compareView, tr("&Compare"));
    m_tabs->addTab(m_problemsPanel, tr("Pro&blems"));
    m_tabs->setDocumentMode(true);
    m_rightSplitter->addWidget(m_plotPanel);
    m_rightSplitter->addWidget(m_tabs);
    m_rightSplitter->setStretchFactor(0, 2);
    m_rightSplitter->setStretchFactor(1, 3);
    m_mainSplitter->addWidget(m_sidebar);
    m_mainSplitter->addWidget(m_rightSplitter);
    m_mainSplitter->setStretchFactor(1, 1);
    m_mainSplitter->setSizes({400, 1000});
    m_rightSplitter->setSizes({360, 480});
    m_mainSplitter->setChildrenCollapsible(false);
    // A message the user must read (a folder that cannot be opened) above it all.
    auto* central = new QWidget(this);
    auto* column = new QVBoxLayout(central);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_banner);
    column->addWidget(m_mainSplitter, 1);
    setCentralWidget(central);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);

    m_epochActions = new EpochActions({this, workspace, m_sidebar, m_table, m_problemsPanel,
                                       m_compareModel, m_compareView, m_tabs, m_status},
                                      this);
    m_remote = new RemoteActions(this, workspace, m_sidebar, m_status, m_banner, this);
    connect(m_remote, &RemoteActions::dialogShown, this, &MainWindow::confirmationShown);
    m_help = new HelpActions({this, m_tabs, m_plotPanel, m_sidebar}, this);
    createActions();
    m_experiments = new ExperimentsController(
        {this, workspace, m_sidebar, m_table, m_tabs, m_status, action("focusExperiments")});
    connect(m_experiments, &ExperimentsController::openRequested, this, &MainWindow::openFolders);
    connectWorkspace();
    m_actions->setRecent(settings().restore());
    updateActions();
}

MainWindow::~MainWindow() = default;

QAction* MainWindow::action(const QString& name) const
{
    return m_actions->action(name);
}

void MainWindow::createActions()
{
    m_actions = new StudioActions(this, m_table->copyAction());
    m_undoActions = new UndoActions(m_undo, m_workspace, action("undo"), action("redo"), this);
    connect(m_undoActions, &UndoActions::refused, m_status, &QLabel::setText);
    const std::pair<const char*, std::function<void()>> handlers[] = {
        {"open", [this] { openDialog(); }},
        {"connect",
         [this] {
             if (const QString url = m_remote->connectDialog(m_actions->recent()); !url.isEmpty())
                 m_actions->addRecent({url});
         }},
        {"retryRemote", [this] { m_remote->retryCurrent(); }},
        {"closeFolder",
         [this] {
             m_remote->closeCurrent();
             updateActions();
             updateTitle();
         }},
        {"closeAll",
         [this] {
             m_workspace->closeAll();
             m_compareModel->clear();
             updateTitle();
         }},
        {"exportCsv", [this] { exportCsv(); }},
        {"quit", [this] { close(); }},
        {"find",
         [this] {
             m_tabs->setCurrentWidget(m_table);
             m_table->filterEdit()->setFocus();
         }},
        {"makeLast", [this] { m_epochActions->rollback(QStringLiteral("last")); }},
        {"makeBest", [this] { m_epochActions->rollback(QStringLiteral("best")); }},
        {"restartFrom", [this] { m_experiments->launchFrom(LaunchPlan::Mode::Restart); }},
        {"forkFrom", [this] { m_experiments->launchFrom(LaunchPlan::Mode::Fork); }},
        {"compare",
         [this] {
             m_comparedRuns.clear();
             for (const EpochRef& ref : m_table->selectedEpochs())
                 m_comparedRuns << ref.root;
             m_epochActions->compareSelected();
         }},
        {"inspectModel", [this] { m_epochActions->inspectModel(); }},
        {"verifyEpochs", [this] { m_epochActions->verify(EpochActions::VerifySelectedEpochs); }},
        {"verifyRuns", [this] { m_epochActions->verify(EpochActions::VerifySelectedRuns); }},
        {"verifyAll", [this] { m_epochActions->verify(EpochActions::VerifyAll); }},
        {"cancel", [this] { m_workspace->cancelVerify(); }},
        {"prune", [this] { m_epochActions->prune(); }},
        {"focusRuns", [this] { m_sidebar->view()->setFocus(); }},
        {"focusTable",
         [this] {
             m_tabs->setCurrentWidget(m_table);
             m_table->view()->setFocus();
         }},
        {"focusProblems",
         [this] {
             m_tabs->setCurrentWidget(m_problemsPanel);
             m_problemsPanel->view()->setFocus();
         }},
        {"userGuide", [this] { m_help->showUserGuide(); }},
        {"shortcuts", [this] { m_help->showShortcuts(); }},
        {"about", [this] { m_help->showAbout(); }},
    };
    for (const auto& [name, handler] : handlers)
        connect(action(QLatin1String(name)), &QAction::triggered, this, handler);
    connect(m_actions, &StudioActions::recentChosen, this,
            [this](const QString& folder) { openFolders({folder}); });
    m_actions->buildMenus();

    auto* sep = new QAction(this);
    sep->setSeparator(true);
    auto* sep2 = new QAction(this);
    sep2->setSeparator(true);
    m_table->setContextActions({action("makeLast"), action("makeBest"), sep, action("restartFrom"),
                                action("forkFrom"), sep2, action("compare"), action("inspectModel"),
                                action("verifyEpochs"), action("copy")});
    auto* sep3 = new QAction(this);
    sep3->setSeparator(true);
    m_sidebar->setContextActions({action("verifyRuns"), action("prune"), sep3,
                                  action("retryRemote"), action("closeFolder")});
}

void MainWindow::connectWorkspace()
{
    connect(m_sidebar, &RunSidebar::selectedRunsChanged, this, [this](const QStringList& roots) {
        // A comparison of epochs whose run is no longer shown is not left on
        // the Compare tab as if it were about the runs now selected.
        if (std::any_of(m_comparedRuns.cbegin(), m_comparedRuns.cend(),
                        [&roots](const QString& r) { return !roots.contains(r); })) {
            m_comparedRuns.clear();
            m_compareModel->clear();
            m_compareView->setWeightsUnavailable(tr("Select two epochs to compare their weights."));
        }
        m_workspace->showRuns(roots);
        m_plotSync->refresh();
        updateActions();
        updateTitle();
    });
    connect(m_workspace, &Workspace::runAdded, this, [this](const QString& root) {
        // Show something at once: the first run found.
        if (m_sidebar->selectedRuns().isEmpty())
            m_sidebar->selectRuns({root});
        updateTitle();
    });
    MetricPlot* plot = m_plotPanel->plot();
    connect(plot, &MetricPlot::epochClicked, m_table, &EpochTableView::selectEpoch);
    connect(m_table, &EpochTableView::currentEpochChanged, plot, &MetricPlot::selectEpoch);
    connect(m_workspace, &Workspace::message, m_status, &QLabel::setText);
    connect(m_workspace, &Workspace::alert, this, [this](const QString& text) {
        m_status->setText(text);
        m_banner->showMessage(MessageBanner::Kind::Error, text, {}, QStringLiteral("checksum"));
    });
    // "FOLDER: 5 runs" stays true while it is shown: a run the watcher sees
    // appear or go after the scan recounts it (any later message stays as it is).
    connect(m_workspace, &Workspace::scanFinished, this,
            [this](const QString& folder, const QString& error, int runs) {
                m_summaryFolder = error.isEmpty() ? folder : QString();
                m_summaryText = Workspace::summaryText(folder, runs);
            });
    const auto recount = [this](const QString& folder) {
        if (folder.isEmpty() || folder != m_summaryFolder || m_status->text() != m_summaryText)
            return;
        m_summaryText = m_workspace->folderSummary(folder);
        m_status->setText(m_summaryText);
    };
    connect(m_workspace, &Workspace::runAdded, this, [this, recount](const QString& root) {
        if (const RunState* s = m_workspace->state(root))
            recount(s->folder);
    });
    connect(m_workspace, &Workspace::runRemoved, this,
            [recount](const QString&, const QString& folder) { recount(folder); });
    connect(m_workspace, &Workspace::remoteConnectionChanged, this, [this](const QString& folder) {
        m_remote->connectionChanged(folder);
        updateTitle();
        updateActions();
    });
    connect(m_workspace, &Workspace::operationFinished, this, &MainWindow::onOperationFinished);
    VerifyProgress::follow(m_workspace, m_progress, action("cancel"));
    connect(m_workspace, &Workspace::relinked, this,
            [this](const QString& root, const QString& link, int epoch) {
                m_undo->push(
                    new RelinkCommand(m_workspace, root, link, epoch, previousTarget(root, link)));
            });
    connect(m_workspace->operations(), &RunOperations::pruned, this,
            [this](const QString& root, const std::vector<TrashedEpoch>& trashed, bool again) {
                // A redo's new trash names go to the step it redid (the stack's last done one).
                if (again && m_undo->index() > 0) {
                    auto* done = const_cast<QUndoCommand*>(m_undo->command(m_undo->index() - 1));
                    if (auto* prune = dynamic_cast<PruneCommand*>(done);
                        prune && prune->root() == root) {
                        prune->setTrashed(trashed);
                        m_undoActions->refresh();
                        return;
                    }
                }
                m_undo->push(new PruneCommand(m_workspace, root, trashed));
            });
    connect(m_table, &EpochTableView::selectionChanged, this, &MainWindow::updateActions);
    connect(m_table, &EpochTableView::exportRequested, this, &MainWindow::exportCsv);
    connect(m_problemsPanel, &ProblemsPanel::repairRequested, m_epochActions,
            &EpochActions::repairProblem);
    connect(m_problemsPanel, &ProblemsPanel::repairAllRequested, this,
            [this](const QStringList& roots) {
                for (const QString& root : roots)
                    if (m_workspace->isRemote(root))
                        m_workspace->remoteOperations()->repair(root, QStringLiteral("all"));
                    else
                        m_workspace->operations()->repairAll(root);
            });
    connect(m_problemsPanel, &ProblemsPanel::moveWorkAsideRequested, this,
            [this](const QString& root) {
                if (m_workspace->isRemote(root))
                    m_status->setText(RemoteActions::notAvailableRemotely());
                else
                    m_workspace->operations()->moveWorkAside(root);
            });
    connect(m_problemsPanel, &ProblemsPanel::showRequested, this,
            [this](const QString& root, int epoch) {
                m_sidebar->selectRuns({root});
                if (epoch >= 0) {
                    m_tabs->setCurrentWidget(m_table);
                    m_table->selectEpoch(root, epoch);
                }
            });
    connect(m_workspace->problems(), &QAbstractItemModel::rowsInserted, this,
            &MainWindow::updateTitle);
    connect(m_workspace->problems(), &QAbstractItemModel::rowsRemoved, this,
            &MainWindow::updateTitle);
}

void MainWindow::updateTitle()
{
    const int problems = m_workspace->problems()->rowCount();
    m_tabs->setTabText(2, problems > 0 ? tr("Pro&blems (%1)").arg(problems) : tr("Pro&blems"));
    const QStringList shown = m_workspace->shownRuns();
    QString title = tr("Ckpt Studio");
    if (shown.size() == 1)
        title = m_workspace->runName(shown.first()) + QStringLiteral(" — ") + title;
    else if (shown.size() > 1)
        title = tr("%1 runs — %2").arg(shown.size()).arg(title);
    // What the table and plot show of a disconnected remote run may be out of date.
    QStringList offline;
    for (const QString& root : shown)
        if (const RunState* s = m_workspace->state(root);
            s && m_workspace->isRemote(root) &&
            !m_workspace->remote()->staleLabel(s->folder).isEmpty())
            offline << m_workspace->remote()->host(s->folder);
    offline.removeDuplicates();
    if (!offline.isEmpty())
        title = tr("[offline: %1] %2").arg(offline.join(QStringLiteral(", ")), title);
    setWindowTitle(title);
}

void MainWindow::updateActions()
{
    // Only what can work is offered: an action is enabled from the selection
    // and the run's layout, and a disabled one's tooltip says why.
    const auto offer = [this](const char* name, const QString& why) {
        QAction* a = action(QLatin1String(name));
        a->setEnabled(why.isEmpty());
        a->setToolTip(why.isEmpty() ? a->text().remove(QLatin1Char('&')) : why);
    };
    const auto epochs = m_table->selectedEpochs();
    const int selected = static_cast<int>(epochs.size());
    const Run* epochRun = selected == 1 ? m_workspace->run(epochs.first().root) : nullptr;
    const auto onOneEpoch = [&](bool (Layout::*can)() const, const QString& cannot) {
        if (selected != 1)
            return tr("Select one epoch first.");
        const Layout* layout = epochRun ? layoutOf(*epochRun) : nullptr;
        if (!layout)
            return tr("The epoch's run is not loaded.");
        return (layout->*can)() ? QString() : cannot.arg(QString::fromStdString(epochRun->layout));
    };
    const QString links = onOneEpoch(&Layout::linksMovable, tr("%1 runs have no links to move."));
    offer("makeLast", links);
    offer("makeBest", links);
    // A remote epoch's restart or fork is the far ckpt's (the dialog asks it);
    // compare and inspect serve remote epochs too (the far ckpt reads the models).
    const QString launch =
        onOneEpoch(&Layout::canRestart, tr("Ckpt Studio cannot restart or fork %1 runs yet."));
    offer("restartFrom", launch);
    offer("forkFrom", launch);
    offer("compare", selected == 2 ? QString() : tr("Select two epochs to compare."));
    offer("inspectModel", selected == 1 ? QString() : tr("Select one epoch first."));
    offer("verifyEpochs", selected > 0 ? QString() : tr("Select epochs first."));
    action("copy")->setEnabled(selected > 0);
    const QStringList runs = m_sidebar->selectedRuns();
    offer("verifyRuns", runs.isEmpty() ? tr("Select runs first.") : QString());
    offer("cancel", m_workspace->isVerifying() ? QString() : tr("Nothing is running."));
    const Run* pruneRun = runs.size() == 1 ? m_workspace->run(runs.first()) : nullptr;
    const Layout* pruneLayout = pruneRun ? layoutOf(*pruneRun) : nullptr;
    offer("prune", runs.size() != 1 ? tr("Select one run first.")
                   : !pruneLayout   ? tr("The run is not loaded.")
                   : !pruneLayout->canDeleteEpochs()
                       ? tr("%1 runs cannot be pruned by Ckpt Studio.")
                             .arg(QString::fromStdString(pruneRun->layout))
                       : QString());
    const QString folder = m_remote->currentFolder();
    action("retryRemote")->setEnabled(m_workspace->remote()->contains(folder));
    action("closeFolder")->setEnabled(!folder.isEmpty());
}

void MainWindow::openFolders(const QStringList& folders)
{
    QStringList dirs;
    QStringList remote;
    for (const QString& f : folders) {
        const QFileInfo info(f);
        if (RemoteFolders::looksRemote(f))
            remote << f;
        else if (info.isDir())
            dirs << info.absoluteFilePath();
        else if (!info.exists())
            m_status->setText(tr("No such folder: %1").arg(f));
        else
            m_status->setText(tr("Not a folder: %1 is a file").arg(f));
    }
    m_actions->addRecent(m_remote->open(remote));
    if (dirs.isEmpty())
        return;
    m_workspace->openFolders(dirs);
    m_actions->addRecent(dirs);
}

void MainWindow::setEmptyHint(const QString& text)
{
    m_sidebar->setEmptyHint(text);
}

void MainWindow::openDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Open an experiment folder"), m_actions->recent().value(0, QDir::homePath()));
    if (!dir.isEmpty())
        openFolders({dir});
}

void MainWindow::exportCsv()
{
    CsvExport::askAndWrite(this, m_table->tableAsCsv(),
                           [this](const QString& message) { m_status->setText(message); });
}

void MainWindow::onOperationFinished(const QString& root, const QString& action,
                                     const QString& error)
{
    if (error.isEmpty())
        return;
    QMessageBox::warning(this, tr("%1 failed").arg(action),
                         tr("%1\n\n%2").arg(m_workspace->runName(root), error));
}

StudioSettings MainWindow::settings()
{
    return {this, m_mainSplitter, m_rightSplitter, m_sidebar, m_table};
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    settings().save(m_actions->recent(), m_workspace->folders());
    event->accept();
}

std::optional<int> MainWindow::previousTarget(const QString& root, const QString& link) const
{
    // A local relink journals the exact text it replaced: the epoch that text
    // names is where an undo goes back to. A remote run's is the link as last held.
    const Run* run = m_workspace->run(root);
    if (!run)
        return std::nullopt;
    if (!m_workspace->isRemote(root))
        if (const Layout* layout = layoutOf(*run))
            if (auto entry = Relinker::nextUndo(root.toStdString());
                entry && *entry && (*entry)->link == link.toStdString())
                return (*entry)->from ? LinkState::trailingEpoch(*layout, *(*entry)->from)
                                      : std::nullopt;
    return run->linkedEpoch(link.toStdString());
}

} // namespace ckpt
