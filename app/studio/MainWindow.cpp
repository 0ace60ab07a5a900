#include "MainWindow.h"

#include "RelinkCommand.h"
#include "common/ProgressStrip.h"
#include "compare/CompareView.h"
#include "dialogs/AboutDialog.h"
#include "dialogs/PruneDialog.h"
#include "dialogs/RollbackConfirmDialog.h"
#include "layout/Layout.h"
#include "model/ModelInspector.h"
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
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTreeView>
#include <QUndoStack>
#include <QtConcurrent>

namespace ckpt {

namespace {
enum VerifyScope
{
    VerifySelectedRuns,
    VerifySelectedEpochs,
    VerifyAll
};
constexpr int MaxRecent = 10;
} // namespace

MainWindow::MainWindow(Workspace* workspace, QWidget* parent)
    : QMainWindow(parent), m_workspace(workspace), m_compareModel(new CompareModel(this)),
      m_sidebar(new RunSidebar(this)), m_table(new EpochTableView(this)),
      m_plotPanel(new PlotPanel(this)), m_problemsPanel(new ProblemsPanel(this)),
      m_compareView(new CompareView(this)), m_progress(new ProgressStrip(this)),
      m_status(new QLabel(this)), m_mainSplitter(new QSplitter(Qt::Horizontal, this)),
      m_rightSplitter(new QSplitter(Qt::Vertical, this)), m_tabs(new QTabWidget(this)),
      m_undo(new QUndoStack(this))
{
    setWindowTitle(tr("Ckpt Studio"));
    setAcceptDrops(true);
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
    m_mainSplitter->setSizes({340, 1060});
    m_rightSplitter->setSizes({360, 480});
    m_mainSplitter->setChildrenCollapsible(false);
    setCentralWidget(m_mainSplitter);
    statusBar()->addWidget(m_status, 1);
    statusBar()->addPermanentWidget(m_progress);

    createActions();
    createMenus();
    connectWorkspace();
    restoreSettings();
    updateActions();
}

MainWindow::~MainWindow() = default;

QAction* MainWindow::action(const QString& name) const
{
    return m_actions.value(name);
}

void MainWindow::createActions()
{
    const auto add = [this](const QString& name, const QString& text, const QKeySequence& key,
                            auto slot) {
        auto* a = new QAction(text, this);
        a->setObjectName(name);
        if (!key.isEmpty())
            a->setShortcut(key);
        connect(a, &QAction::triggered, this, slot);
        m_actions.insert(name, a);
        addAction(a);
        return a;
    };
    add("open", tr("&Open Folder…"), QKeySequence::Open, [this] { openDialog(); });
    add("closeAll", tr("&Close All"), QKeySequence(tr("Ctrl+Shift+W")), [this] {
        m_workspace->closeAll();
        m_compareModel->clear();
        updateTitle();
    });
    add("exportCsv", tr("&Export Table as CSV…"), QKeySequence(tr("Ctrl+E")),
        [this] { exportCsv(); });
    add("quit", tr("&Quit"), QKeySequence::Quit, [this] { close(); });
    add("find", tr("&Filter Epochs"), QKeySequence::Find, [this] {
        m_tabs->setCurrentWidget(m_table);
        m_table->filterEdit()->setFocus();
    });
    add("makeLast", tr("Make &Last (Roll Back)…"), QKeySequence(tr("Ctrl+L")),
        [this] { rollback(QStringLiteral("last")); });
    add("makeBest", tr("Make &Best…"), QKeySequence(tr("Ctrl+B")),
        [this] { rollback(QStringLiteral("best")); });
    add("compare", tr("&Compare Selected Epochs"), QKeySequence(tr("Ctrl+D")),
        [this] { compareSelected(); });
    add("inspectModel", tr("&Inspect Model…"), QKeySequence(tr("Ctrl+I")),
        [this] { inspectModel(); });
    add("verifyEpochs", tr("&Verify Selected Epochs"), QKeySequence(tr("Ctrl+Shift+V")),
        [this] { verify(VerifySelectedEpochs); });
    add("verifyRuns", tr("Verify Selected &Runs"), QKeySequence(tr("Ctrl+R")),
        [this] { verify(VerifySelectedRuns); });
    add("verifyAll", tr("Verify &Everything"), QKeySequence(tr("Ctrl+Shift+R")),
        [this] { verify(VerifyAll); });
    add("cancel", tr("Cancel Running Task"), QKeySequence(Qt::Key_Escape),
        [this] { m_workspace->cancelVerify(); });
    add("prune", tr("&Prune Run…"), QKeySequence(tr("Ctrl+Shift+P")), [this] { prune(); });
    add("focusRuns", tr("Go to &Runs"), QKeySequence(tr("Ctrl+1")),
        [this] { m_sidebar->view()->setFocus(); });
    add("focusTable", tr("Go to &Epochs"), QKeySequence(tr("Ctrl+2")), [this] {
        m_tabs->setCurrentWidget(m_table);
        m_table->view()->setFocus();
    });
    add("focusProblems", tr("Go to &Problems"), QKeySequence(tr("Ctrl+3")), [this] {
        m_tabs->setCurrentWidget(m_problemsPanel);
        m_problemsPanel->view()->setFocus();
    });
    add("about", tr("&About Ckpt Studio"), QKeySequence(), [this] { showAbout(); });
    m_actions.insert("copy", m_table->copyAction());

    auto* undo = m_undo->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setObjectName("undo");
    m_actions.insert("undo", undo);
    auto* redo = m_undo->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setObjectName("redo");
    m_actions.insert("redo", redo);
    addActions({undo, redo});

    auto* sep = new QAction(this);
    sep->setSeparator(true);
    m_table->setContextActions({m_actions["makeLast"], m_actions["makeBest"], sep,
                                m_actions["compare"], m_actions["inspectModel"],
                                m_actions["verifyEpochs"], m_actions["copy"]});
    m_sidebar->setContextActions({m_actions["verifyRuns"], m_actions["prune"]});
}

void MainWindow::createMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_actions["open"]);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    file->addAction(m_actions["exportCsv"]);
    file->addAction(m_actions["closeAll"]);
    file->addSeparator();
    file->addAction(m_actions["quit"]);
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_actions["undo"]);
    edit->addAction(m_actions["redo"]);
    edit->addSeparator();
    edit->addAction(m_actions["copy"]);
    edit->addAction(m_actions["find"]);
    QMenu* epoch = menuBar()->addMenu(tr("E&poch"));
    epoch->addAction(m_actions["makeLast"]);
    epoch->addAction(m_actions["makeBest"]);
    epoch->addSeparator();
    epoch->addAction(m_actions["compare"]);
    epoch->addAction(m_actions["inspectModel"]);
    epoch->addAction(m_actions["verifyEpochs"]);
    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_actions["verifyRuns"]);
    run->addAction(m_actions["verifyAll"]);
    run->addAction(m_actions["cancel"]);
    run->addSeparator();
    run->addAction(m_actions["prune"]);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(m_actions["focusRuns"]);
    view->addAction(m_actions["focusTable"]);
    view->addAction(m_actions["focusProblems"]);
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_actions["about"]);
    rebuildRecentMenu();
}

void MainWindow::connectWorkspace()
{
    connect(m_sidebar, &RunSidebar::selectedRunsChanged, this, [this](const QStringList& roots) {
        m_workspace->showRuns(roots);
        refreshPlot();
        updateActions();
        updateTitle();
    });
    connect(m_workspace, &Workspace::runAdded, this, [this](const QString& root) {
        // Show something at once: the first run found.
        if (m_sidebar->selectedRuns().isEmpty())
            m_sidebar->selectRuns({root});
        updateTitle();
    });
    connect(m_workspace, &Workspace::historyChanged, this, [this](const QString& root) {
        const auto* s = m_workspace->state(root);
        if (!m_workspace->shownRuns().contains(root) || !s || !s->history)
            return;
        // The live path: the plot extends the run's curves in place.
        m_plotPanel->plot()->updateRun(root, m_workspace->runName(root), *s->history);
        updateMarkers(root);
        refreshMetrics();
    });
    connect(m_workspace, &Workspace::runChanged, this, &MainWindow::updateMarkers);
    MetricPlot* plot = m_plotPanel->plot();
    connect(plot, &MetricPlot::epochClicked, m_table, &EpochTableView::selectEpoch);
    connect(m_table, &EpochTableView::currentEpochChanged, plot, &MetricPlot::selectEpoch);
    connect(m_workspace, &Workspace::message, m_status, &QLabel::setText);
    connect(m_workspace, &Workspace::operationFinished, this, &MainWindow::onOperationFinished);
    connect(m_workspace, &Workspace::verifyStarted, this, [this](int epochs) {
        m_progress->start(tr("Verifying %n epoch(s)", nullptr, epochs));
        m_actions["cancel"]->setEnabled(true);
    });
    connect(m_workspace, &Workspace::verifyProgress, this, [this](quint64 done, quint64 total) {
        m_progress->setProgress(done, total, QStringLiteral("bytes"));
    });
    connect(m_workspace, &Workspace::verifyFinished, this, [this](const QString& summary) {
        m_progress->finish(summary);
        m_actions["cancel"]->setEnabled(false);
    });
    connect(m_progress, &ProgressStrip::cancelRequested, m_workspace, &Workspace::cancelVerify);
    connect(m_workspace, &Workspace::relinked, this,
            [this](const QString& root, const QString& link, int epoch) {
                m_undo->push(
                    new RelinkCommand(m_workspace, root, m_workspace->runName(root), link, epoch));
            });
    connect(m_table, &EpochTableView::selectionChanged, this, &MainWindow::updateActions);
    connect(m_table, &EpochTableView::exportRequested, this, &MainWindow::exportCsv);
    connect(m_problemsPanel, &ProblemsPanel::repairRequested, this, &MainWindow::repairProblem);
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

void MainWindow::refreshPlot()
{
    std::vector<MetricPlot::RunHistory> runs;
    for (const QString& root : m_workspace->shownRuns())
        if (const auto* s = m_workspace->state(root); s && s->history)
            runs.push_back({root, m_workspace->runName(root), *s->history});
    m_plotPanel->plot()->setRuns(std::move(runs));
    for (const QString& root : m_workspace->shownRuns())
        updateMarkers(root);
    refreshMetrics();
}

void MainWindow::updateMarkers(const QString& root)
{
    const Run* run = m_workspace->run(root);
    if (!run || !m_workspace->shownRuns().contains(root))
        return;
    const auto epochOf = [&](const char* name) {
        return run->linkedEpoch(name).value_or(MetricPlot::NoEpoch);
    };
    m_plotPanel->plot()->setMarkers(root, epochOf("last"), epochOf("best"));
}

void MainWindow::refreshMetrics()
{
    const QStringList metrics = m_plotPanel->plot()->availableMetrics();
    QStringList preferred;
    for (const QString& name : {QStringLiteral("loss"), QStringLiteral("val_loss")})
        if (metrics.contains(name))
            preferred << name;
    // Runs without logs still have ckpt-info's running best.
    if (preferred.isEmpty() && metrics.contains(QStringLiteral("best_so_far")))
        preferred << QStringLiteral("best_so_far");
    m_plotPanel->setMetrics(metrics, preferred);
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
    m_actions["makeLast"]->setEnabled(selected == 1);
    m_actions["makeBest"]->setEnabled(selected == 1);
    m_actions["compare"]->setEnabled(selected == 2);
    m_actions["inspectModel"]->setEnabled(selected == 1);
    m_actions["verifyEpochs"]->setEnabled(selected > 0);
    m_actions["copy"]->setEnabled(selected > 0);
    m_actions["verifyRuns"]->setEnabled(!m_sidebar->selectedRuns().isEmpty());
    m_actions["cancel"]->setEnabled(m_workspace->isVerifying());
    m_actions["prune"]->setEnabled(m_sidebar->selectedRuns().size() == 1);
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
    addRecent(dirs);
}

void MainWindow::setEmptyHint(const QString& text)
{
    m_sidebar->setEmptyHint(text);
}

void MainWindow::openDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open an experiment folder"),
                                                          m_recent.value(0, QDir::homePath()));
    if (!dir.isEmpty())
        openFolders({dir});
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!event->mimeData()->hasUrls())
        return;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) {
            event->acceptProposedAction();
            return;
        }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList folders;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (!url.isLocalFile())
            continue;
        const QString path = url.toLocalFile();
        if (QFileInfo(path).isFile() && ModelInspector::isModelFile(path))
            ModelInspectorDialog::showFile(path, this);
        else
            folders << path;
    }
    if (folders.isEmpty())
        return;
    event->acceptProposedAction();
    openFolders(folders);
}

void MainWindow::addRecent(const QStringList& folders)
{
    for (const QString& f : folders) {
        m_recent.removeAll(f);
        m_recent.prepend(f);
    }
    while (m_recent.size() > MaxRecent)
        m_recent.removeLast();
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    if (!m_recentMenu)
        return;
    m_recentMenu->clear();
    for (int i = 0; i < m_recent.size(); ++i) {
        const QString folder = m_recent[i];
        QAction* a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(folder));
        connect(a, &QAction::triggered, this, [this, folder] { openFolders({folder}); });
    }
    m_recentMenu->setEnabled(!m_recent.isEmpty());
}

void MainWindow::exportCsv()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export epochs as CSV"), QStringLiteral("epochs.csv"), tr("CSV files (*.csv)"));
    if (path.isEmpty())
        return;
    const QByteArray csv = m_table->tableAsCsv().toUtf8();
    // Written off the GUI thread: the folder may be on a slow mount.
    auto* watcher = new QFutureWatcher<bool>(this);
    connect(watcher, &QFutureWatcher<bool>::finished, this, [this, watcher, path] {
        m_status->setText(watcher->result() ? tr("Exported %1").arg(path)
                                            : tr("Could not write %1").arg(path));
        watcher->deleteLater();
    });
    watcher->setFuture(QtConcurrent::run([path, csv] {
        QFile f(path);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(csv) == csv.size();
    }));
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
        const Epoch* epoch = state ? state->run.findEpoch(ref.epoch) : nullptr;
        if (!epoch)
            return;
        CompareSide side{m_workspace->runName(ref.root), *epoch, {}, std::nullopt};
        if (const Layout* layout = layoutOf(state->run))
            side.recordName = QString::fromUtf8(layout->recordName().data(),
                                                qsizetype(layout->recordName().size()));
        modelPaths << QString::fromStdString(state->run.modelPath(*epoch));
        if (state->history)
            for (const HistoryRow* row : state->history->latestPerEpoch())
                if (row->epoch == ref.epoch)
                    side.history = *row;
        sides.push_back(std::move(side));
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
    ModelInspectorDialog::showFile(QString::fromStdString(state->run.modelPath(*epoch)), this);
}

void MainWindow::rollback(const QString& link)
{
    const auto selected = m_table->selectedEpochs();
    if (selected.size() != 1)
        return;
    const EpochRef ref = selected.first();
    const Run* run = m_workspace->run(ref.root);
    if (!run)
        return;
    const Layout* layout = layoutOf(*run);
    if (!layout || !layout->linksMovable()) {
        m_status->setText(
            tr("%1 runs have no movable links.").arg(QString::fromStdString(run->layout)));
        return;
    }
    RollbackConfirmDialog::Request request;
    request.runName = m_workspace->runName(ref.root);
    request.link = link;
    request.epoch = ref.epoch;
    if (const RunLink* current = run->link(link.toStdString()))
        request.currentTarget = current->epoch;
    if (link == QLatin1String("last"))
        request.overwritten = Relinker::restartOverwrites(*run, ref.epoch);
    RollbackConfirmDialog dialog(request, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    m_workspace->operations()->relink(ref.root, link, ref.epoch, true);
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
    std::vector<PruneDialog::EpochEntry> entries;
    for (const auto& e : run->epochs)
        entries.push_back({e.number, e.modelBytes().value_or(0)});
    std::set<int> protectedEpochs{run->epochs.back().number};
    for (const auto& l : run->links)
        if (l.epoch)
            protectedEpochs.insert(*l.epoch);
    PruneDialog dialog(m_workspace->runName(runs.first()), std::move(entries), protectedEpochs,
                       this);
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

void MainWindow::restoreSettings()
{
    QSettings s;
    restoreGeometry(s.value("window/geometry").toByteArray());
    restoreState(s.value("window/state").toByteArray());
    m_mainSplitter->restoreState(s.value("window/mainSplitter").toByteArray());
    m_rightSplitter->restoreState(s.value("window/rightSplitter").toByteArray());
    m_sidebar->restoreState(s.value("sidebar/header").toByteArray());
    m_table->setHiddenColumns(s.value("table/hiddenColumns").toStringList());
    m_recent = s.value("recentFolders").toStringList();
    rebuildRecentMenu();
}

void MainWindow::saveSettings() const
{
    QSettings s;
    s.setValue("window/geometry", saveGeometry());
    s.setValue("window/state", saveState());
    s.setValue("window/mainSplitter", m_mainSplitter->saveState());
    s.setValue("window/rightSplitter", m_rightSplitter->saveState());
    s.setValue("sidebar/header", m_sidebar->saveState());
    s.setValue("table/hiddenColumns", m_table->hiddenColumns());
    s.setValue("recentFolders", m_recent);
    s.setValue("session/folders", m_workspace->folders());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveSettings();
    event->accept();
}

} // namespace ckpt
