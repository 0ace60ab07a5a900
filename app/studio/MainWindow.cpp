#include "MainWindow.h"

#include "CsvExport.h"
#include "ExperimentsController.h"
#include "FolderDrop.h"
#include "PlotSync.h"
#include "RelinkCommand.h"
#include "StudioActions.h"
#include "StudioSettings.h"
#include "VerifyProgress.h"
#include "common/ProgressStrip.h"
#include "compare/CompareView.h"
#include "dialogs/AboutDialog.h"
#include "dialogs/PruneDialog.h"
#include "dialogs/RollbackConfirmDialog.h"
#include "layout/Layout.h"
#include "model/ModelInspectorDialog.h"
#include "models/CompareModel.h"
#include "models/EpochTableModel.h"
#include "models/ProblemsModel.h"
#include "models/RunTreeModel.h"
#include "ops/Relinker.h"
#include "plot/MetricPlot.h"
#include "plotpanel/PlotPanel.h"
#include "problems/ProblemsPanel.h"
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

namespace ckpt {

namespace {
enum VerifyScope
{
    VerifySelectedRuns,
    VerifySelectedEpochs,
    VerifyAll
};
} // namespace

MainWindow::MainWindow(Workspace* workspace, QWidget* parent)
    : QMainWindow(parent), m_workspace(workspace), m_compareModel(new CompareModel(this)),
      m_sidebar(new RunSidebar(this)), m_table(new EpochTableView(this)),
      m_plotPanel(new PlotPanel(this)), m_problemsPanel(new ProblemsPanel(this)),
      m_compareView(new CompareView(this)), m_progress(new ProgressStrip(this)),
      m_status(new QLabel(this)), m_mainSplitter(new QSplitter(Qt::Horizontal, this)),
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

    m_tabs->addTab(m_table, tr("&Epochs"));
    m_tabs->addTab(m_compareView, tr("&Compare"));
    m_tabs->addTab(m_problemsPanel, tr("&Problems"));
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
    setCentralWidget(m_mainSplitter);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);

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
    m_actions = new StudioActions(this, m_undo, m_table->copyAction());
    const std::pair<const char*, std::function<void()>> handlers[] = {
        {"open", [this] { openDialog(); }},
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
        {"makeLast", [this] { rollback(QStringLiteral("last")); }},
        {"makeBest", [this] { rollback(QStringLiteral("best")); }},
        {"restartFrom", [this] { m_experiments->launchFrom(LaunchPlan::Mode::Restart); }},
        {"forkFrom", [this] { m_experiments->launchFrom(LaunchPlan::Mode::Fork); }},
        {"compare", [this] { compareSelected(); }},
        {"inspectModel", [this] { inspectModel(); }},
        {"verifyEpochs", [this] { verify(VerifySelectedEpochs); }},
        {"verifyRuns", [this] { verify(VerifySelectedRuns); }},
        {"verifyAll", [this] { verify(VerifyAll); }},
        {"cancel", [this] { m_workspace->cancelVerify(); }},
        {"prune", [this] { prune(); }},
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
        {"about", [this] { showAbout(); }},
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
    m_sidebar->setContextActions({action("verifyRuns"), action("prune")});
}

void MainWindow::connectWorkspace()
{
    connect(m_sidebar, &RunSidebar::selectedRunsChanged, this, [this](const QStringList& roots) {
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
    connect(m_workspace, &Workspace::operationFinished, this, &MainWindow::onOperationFinished);
    VerifyProgress::follow(m_workspace, m_progress, action("cancel"));
    connect(m_workspace, &Workspace::relinked, this,
            [this](const QString& root, const QString& link, int epoch) {
                m_undo->push(
                    new RelinkCommand(m_workspace, root, m_workspace->runName(root), link, epoch));
            });
    connect(m_table, &EpochTableView::selectionChanged, this, &MainWindow::updateActions);
    connect(m_table, &EpochTableView::exportRequested, this, &MainWindow::exportCsv);
    connect(m_problemsPanel, &ProblemsPanel::repairRequested, this, &MainWindow::repairProblem);
    connect(m_problemsPanel, &ProblemsPanel::repairAllRequested, this,
            [this](const QStringList& roots) {
                for (const QString& root : roots)
                    m_workspace->operations()->repairAll(root);
            });
    connect(m_problemsPanel, &ProblemsPanel::moveWorkAsideRequested, m_workspace->operations(),
            &RunOperations::moveWorkAside);
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
    m_tabs->setTabText(2, problems > 0 ? tr("&Problems (%1)").arg(problems) : tr("&Problems"));
    const QStringList shown = m_workspace->shownRuns();
    QString title = tr("Ckpt Studio");
    if (shown.size() == 1)
        title = m_workspace->runName(shown.first()) + QStringLiteral(" — ") + title;
    else if (shown.size() > 1)
        title = tr("%1 runs — %2").arg(shown.size()).arg(title);
    setWindowTitle(title);
}

void MainWindow::updateActions()
{
    const int selected = static_cast<int>(m_table->selectedEpochs().size());
    action("makeLast")->setEnabled(selected == 1);
    action("makeBest")->setEnabled(selected == 1);
    action("restartFrom")->setEnabled(selected == 1);
    action("forkFrom")->setEnabled(selected == 1);
    action("compare")->setEnabled(selected == 2);
    action("inspectModel")->setEnabled(selected == 1);
    action("verifyEpochs")->setEnabled(selected > 0);
    action("copy")->setEnabled(selected > 0);
    action("verifyRuns")->setEnabled(!m_sidebar->selectedRuns().isEmpty());
    action("cancel")->setEnabled(m_workspace->isVerifying());
    action("prune")->setEnabled(m_sidebar->selectedRuns().size() == 1);
}

void MainWindow::openFolders(const QStringList& folders)
{
    QStringList dirs;
    for (const QString& f : folders)
        if (QFileInfo(f).isDir())
            dirs << QFileInfo(f).absoluteFilePath();
        else
            m_status->setText(tr("Not a folder: %1").arg(f));
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

void MainWindow::compareSelected()
{
    const auto selected = m_table->selectedEpochs();
    if (selected.size() != 2)
        return;
    std::vector<CompareSide> sides;
    QStringList modelPaths;
    for (const EpochRef& ref : selected) {
        const auto* state = m_workspace->state(ref.root);
        auto side = state ? CompareSide::of(m_workspace->runName(ref.root), state->run,
                                            state->history, ref.epoch)
                          : std::nullopt;
        if (!side)
            return;
        modelPaths << QString::fromStdString(state->run.modelPath(side->epoch));
        sides.push_back(std::move(*side));
    }
    m_compareModel->setSides(sides[0], sides[1]);
    auto label = [](const CompareSide& s) {
        return tr("%1 epoch %2").arg(s.runName).arg(s.epoch.number);
    };
    m_compareView->setModelFiles(modelPaths[0], label(sides[0]), modelPaths[1], label(sides[1]));
    m_tabs->setCurrentWidget(m_compareView);
}

void MainWindow::inspectModel()
{
    const auto selected = m_table->selectedEpochs();
    if (selected.size() != 1)
        return;
    const auto* state = m_workspace->state(selected.first().root);
    const Epoch* epoch = state ? state->run.findEpoch(selected.first().epoch) : nullptr;
    if (!epoch || !epoch->hasModel()) {
        m_status->setText(tr("This epoch has no model file."));
        return;
    }
    ModelInspectorDialog::showFile(
        QString::fromStdString(state->run.modelPath(*epoch)), this,
        tr("%1 · epoch %2").arg(m_workspace->runName(selected.first().root)).arg(epoch->number));
}

void MainWindow::rollback(const QString& link)
{
    const auto selected = m_table->selectedEpochs();
    const Run* run = selected.size() == 1 ? m_workspace->run(selected.first().root) : nullptr;
    if (!run)
        return;
    const Layout* layout = layoutOf(*run);
    if (!layout || !layout->linksMovable()) {
        m_status->setText(
            tr("%1 runs have no movable links.").arg(QString::fromStdString(run->layout)));
        return;
    }
    const EpochRef ref = selected.first();
    RollbackConfirmDialog dialog(
        RollbackConfirmDialog::requestFor(*run, m_workspace->runName(ref.root), link, ref.epoch),
        this);
    if (dialog.exec() == QDialog::Accepted)
        m_workspace->operations()->relink(ref.root, link, ref.epoch, true, dialog.force());
}

void MainWindow::verify(int scope)
{
    std::map<QString, std::vector<int>> what;
    if (scope == VerifySelectedEpochs) {
        for (const EpochRef& ref : m_table->selectedEpochs())
            what[ref.root].push_back(ref.epoch);
    } else {
        const QStringList roots =
            scope == VerifyAll ? m_workspace->runRoots() : m_sidebar->selectedRuns();
        for (const QString& root : roots)
            what[root] = {};
    }
    if (m_workspace->isVerifying())
        m_status->setText(tr("A verification is already running."));
    else
        m_workspace->verify(what);
}

void MainWindow::prune()
{
    const QStringList runs = m_sidebar->selectedRuns();
    const Run* run = runs.size() == 1 ? m_workspace->run(runs.first()) : nullptr;
    if (!run || run->epochs.empty())
        return;
    if (const Layout* layout = layoutOf(*run); !layout || !layout->canDeleteEpochs()) {
        m_status->setText(tr("%1 runs cannot be pruned.").arg(QString::fromStdString(run->layout)));
        return;
    }
    // The dialog shows Pruner::plan itself: the rule lives in core/ops only.
    PruneDialog dialog(m_workspace->runName(runs.first()), *run, this);
    if (dialog.exec() == QDialog::Accepted)
        m_workspace->operations()->prune(*run, dialog.policy());
}

void MainWindow::repairProblem(int row)
{
    const Problem* problem = m_workspace->problems()->problemAt(row);
    if (!problem)
        return;
    const QString root = m_workspace->problems()->rootAt(row);
    m_workspace->operations()->repair(root,
                                      QFileInfo(QString::fromStdString(problem->path)).fileName());
}

void MainWindow::onOperationFinished(const QString& root, const QString& action,
                                     const QString& error)
{
    if (error.isEmpty())
        return;
    QMessageBox::warning(this, tr("%1 failed").arg(action),
                         tr("%1\n\n%2").arg(m_workspace->runName(root), error));
}

void MainWindow::showAbout()
{
    AboutDialog dialog(this);
    dialog.exec();
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

} // namespace ckpt
