#include "DemoRun.h"
#include "MainWindow.h"
#include "ProcessRunner.h"
#include "Screenshots.h"
#include "SshServer.h"
#include "compare/CompareView.h"
#include "compare/WeightsDiffView.h"
#include "dialogs/PruneDialog.h"
#include "hdf5/TensorStats.h"
#include "model/ModelInspector.h"
#include "model/ModelInspectorDialog.h"
#include "modelfile/WeightsDiff.h"
#include "models/ModelRoles.h"
#include "models/TensorDiffModel.h"
#include "problems/ProblemsPanel.h"
#include "session/RemoteFolders.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QAction>
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QTreeWidget>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {
constexpr int kConnect = 60000; // a bound, not a goal: a loaded machine needs ~35 s at times

bool farProcessRuns(const std::string& command)
{
    const auto lines = runningCommandLines();
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
        return line.find(command) != std::string::npos;
    });
}

// Where a far link points, as an epoch number (-1: not an epoch folder).
int linkedEpoch(const fs::path& link)
{
    std::error_code ec;
    const fs::path target = fs::canonical(link, ec);
    if (ec || target.parent_path().filename() != "epochs")
        return -1;
    return std::stoi(target.filename().string());
}

// Presses the button named `text` of the next modal dialog once it is enabled.
void answerNextDialog(const QString& text, std::function<void(QDialog*)> before = {})
{
    QTimer::singleShot(0, qApp, [text, before] {
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        if (before)
            before(dialog);
        for (auto* b : dialog->findChildren<QAbstractButton*>())
            if (b->text().remove(QLatin1Char('&')).startsWith(text)) {
                QTRY_VERIFY(b->isEnabled());
                QTest::mouseClick(b, Qt::LeftButton);
                return;
            }
        dialog->reject();
    });
}
} // namespace

// Compare, inspect, prune, repair and undo on remote runs in the window,
// through a real sshd and the real `ckpt` of this build on the far side,
// driven by real clicks and keys.
class tst_RemoteViews : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void compareShowsTheFarWeightsDiff();
    void localAgainstRemoteComparesMetadataOnly();
    void inspectShowsTheFarModelsTensors();
    void pruneDeletesExactlyThePlannedEpochsThere();
    void repairFixesABrokenFarLastLink();
    void undoAfterRemoteMakeLastMovesTheFarLinkBack();
    void cancelAndANewPairEndTheFarDiff();
    void droppedConnectionDuringADiffSaysSo();

private:
    QString url(const fs::path& path) const
    {
        return QStringLiteral("ssh://%1%2")
            .arg(m_server->host(), QString::fromStdString(path.string()));
    }
    QString root(const char* run) const { return url(m_far / run / "ckpts"); }
    // Opens the far folder in `window`, clicks `run` in the sidebar and waits
    // for its epochs in the table.
    void openAndShow(MainWindow& window, const char* run);
    // Clicks the epochs (Ctrl+click after the first) in the table.
    void selectEpochs(MainWindow& window, const QString& runRoot, const std::vector<int>& epochs);
    QModelIndex sidebarRow(MainWindow& window, const QString& runRoot) const;

    std::unique_ptr<SshServer> m_server;
    QTemporaryDir m_tmp;
    fs::path m_far;
};

void tst_RemoteViews::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("ckpt-studio-tests"));
    QApplication::setApplicationName(QStringLiteral("tst_RemoteViews"));
    m_server = std::make_unique<SshServer>();
    QVERIFY2(m_server->ok(), m_server->error().c_str());
    m_far = fs::path(m_tmp.path().toStdString()) / "cluster" / "exp";
    for (const char* run : {"RUN000", "RUN001", "RUN002"})
        trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), m_far / run,
                     (m_far / run / "config.ini").string(),
                     "[Global_Params]\nepochs = 4\nlearning_rate = 0.01\n"
                     "samples_per_class = 40\nckpt_checksum = True\n");
    qputenv("CKPT_SSH_COMMAND", ("ssh -F " + m_server->configFile()).toLocal8Bit());
    qputenv("CKPT_REMOTE_CKPT", CKPT_CLI_PATH);
}

void tst_RemoteViews::init()
{
    QSettings().clear();
}

QModelIndex tst_RemoteViews::sidebarRow(MainWindow& window, const QString& runRoot) const
{
    QAbstractItemModel* model = window.sidebar()->view()->model();
    for (int f = 0; f < model->rowCount(); ++f) {
        const QModelIndex folder = model->index(f, 0);
        for (int r = 0; r < model->rowCount(folder); ++r)
            if (model->index(r, 0, folder).data(roles::RunRootRole).toString() == runRoot)
                return model->index(r, 0, folder);
    }
    return {};
}

void tst_RemoteViews::openAndShow(MainWindow& window, const char* run)
{
    window.resize(1300, 850);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({url(m_far)});
    const QString r = root(run);
    QTRY_VERIFY_WITH_TIMEOUT(sidebarRow(window, r).isValid(), kConnect);
    QTRY_COMPARE_WITH_TIMEOUT(window.workspace()->remote()->connection(url(m_far)),
                              RemoteFolders::Connection::Connected, kConnect);
    QTreeView* tree = window.sidebar()->view();
    const QModelIndex row = sidebarRow(window, r);
    tree->scrollTo(row);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(row).center());
    QTRY_COMPARE(window.workspace()->shownRuns(), QStringList{r});
    QTRY_VERIFY(window.epochTable()->view()->model()->rowCount() > 0);
    // Its metrics (the far `ckpt history`) fill the table in: select after that.
    QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->state(r)->history != nullptr, kConnect);
    // Far calls: 11 s here once with the suite running two at a time.
    QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->isIdle(), kConnect);
}

void tst_RemoteViews::selectEpochs(MainWindow& window, const QString& runRoot,
                                   const std::vector<int>& epochs)
{
    QTableView* view = window.epochTable()->view();
    window.action(QStringLiteral("focusTable"))->trigger();
    bool first = true;
    for (const int epoch : epochs) {
        QModelIndex at;
        for (int r = 0; r < view->model()->rowCount() && !at.isValid(); ++r) {
            const QModelIndex i = view->model()->index(r, 1);
            if (i.data(roles::EpochRole).toInt() == epoch &&
                i.data(roles::RunRootRole).toString() == runRoot)
                at = i;
        }
        QVERIFY2(at.isValid(), qPrintable(QStringLiteral("epoch %1 not in the table").arg(epoch)));
        view->scrollTo(at);
        QTest::mouseClick(view->viewport(), Qt::LeftButton,
                          first ? Qt::KeyboardModifiers{} : Qt::ControlModifier,
                          view->visualRect(at).center());
        first = false;
    }
    QTRY_COMPARE(std::size_t(window.epochTable()->selectedEpochs().size()), epochs.size());
}

void tst_RemoteViews::compareShowsTheFarWeightsDiff()
{
    Workspace workspace;
    MainWindow window(&workspace);
    openAndShow(window, "RUN000");
    selectEpochs(window, root("RUN000"), {1, 3});
    QAction* compare = window.action(QStringLiteral("compare"));
    QVERIFY2(compare->isEnabled(), qPrintable(compare->toolTip()));
    QTest::keyClick(window.epochTable()->view(), Qt::Key_D, Qt::ControlModifier);
    CompareView* view = window.compareView();
    QTRY_VERIFY(view->isVisible());
    // The metadata comes from the state held here, as for a local run.
    QVERIFY(view->table()->model()->rowCount() > 0);
    // The weights: computed by the far ckpt when the tab is opened.
    WeightsDiffView* weights = view->weightsView();
    QSignalSpy finished(weights, &WeightsDiffView::finished);
    QTabBar* tabs = view->tabs()->tabBar();
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(1).center());
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(weights->summary()->text()));
    keepScreenshot(&window, QStringLiteral("remote-compare-weights.png"));

    // The same per-tensor differences as a local diff of the same files.
    const fs::path epochs = m_far / "RUN000" / "ckpts" / "epochs";
    const auto model = [&](const char* e) {
        for (const auto& f : fs::directory_iterator(epochs / e))
            if (f.path().extension() == ".h5")
                return f.path().string();
        return std::string();
    };
    QTemporaryDir scratch;
    auto local = WeightsDiff::diff(model("001"), model("003"), scratch.path().toStdString(), "t",
                                   TensorDiff::Options{});
    QVERIFY2(local, local ? "" : local.error().message.c_str());
    const ModelDiff* far = weights->diff();
    QVERIFY(far);
    QCOMPARE(far->tensors.size(), local->diff.tensors.size());
    QVERIFY(!far->tensors.empty());
    for (std::size_t i = 0; i < far->tensors.size(); ++i) {
        const TensorDiffEntry& a = far->tensors[i];
        const TensorDiffEntry& b = local->diff.tensors[i];
        QCOMPARE(a.key, b.key);
        QCOMPARE(a.status, b.status);
        QVERIFY2(std::abs(a.relChange - b.relChange) <=
                     1e-12 * std::max(1.0, std::abs(b.relChange)),
                 a.key.c_str());
        QVERIFY2(std::abs(a.l2Diff - b.l2Diff) <= 1e-12 * std::max(1.0, std::abs(b.l2Diff)),
                 a.key.c_str());
    }
    QCOMPARE(weights->tensorModel()->rowCount(), int(local->diff.tensors.size()));
    QVERIFY(weights->summary()->text().contains(QStringLiteral("changed")));
}

void tst_RemoteViews::localAgainstRemoteComparesMetadataOnly()
{
    // The same run copied here: its epochs side by side with the far ones.
    QTemporaryDir here;
    const fs::path local = fs::path(here.path().toStdString()) / "RUN000";
    fs::copy(m_far / "RUN000", local,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    Workspace workspace;
    MainWindow window(&workspace);
    openAndShow(window, "RUN000");
    window.openFolders({here.path()});
    const QString localRoot = QString::fromStdString((local / "ckpts").string());
    QTRY_VERIFY_WITH_TIMEOUT(sidebarRow(window, localRoot).isValid(), kConnect);
    // Both runs in the table: the far one clicked, the local one Ctrl+clicked.
    QTreeView* tree = window.sidebar()->view();
    const QModelIndex row = sidebarRow(window, localRoot);
    tree->scrollTo(row);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, Qt::ControlModifier,
                      tree->visualRect(row).center());
    QTRY_COMPARE(workspace.shownRuns().size(), 2);
    QTRY_COMPARE(window.epochTable()->view()->model()->rowCount(), 8);
    selectEpochs(window, root("RUN000"), {3});
    QTableView* view = window.epochTable()->view();
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        const QModelIndex i = view->model()->index(r, 1);
        if (i.data(roles::EpochRole).toInt() == 3 &&
            i.data(roles::RunRootRole).toString() == localRoot) {
            view->scrollTo(i);
            QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier,
                              view->visualRect(i).center());
        }
    }
    QTRY_COMPARE(window.epochTable()->selectedEpochs().size(), std::size_t(2));
    QVERIFY(window.action(QStringLiteral("compare"))->isEnabled());
    QTest::keyClick(view, Qt::Key_D, Qt::ControlModifier);
    CompareView* compare = window.compareView();
    QTRY_VERIFY(compare->isVisible());
    // The metadata from the state held here: the copy is the same epoch.
    QVERIFY(compare->table()->model()->rowCount() > 0);
    QTabBar* tabs = compare->tabs()->tabBar();
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(1).center());
    WeightsDiffView* weights = compare->weightsView();
    QVERIFY(!weights->isRunning());
    const QString text = weights->summary()->text();
    QVERIFY2(text.contains(m_server->host()) && text.contains(QStringLiteral("two machines")),
             qPrintable(text));
    keepScreenshot(&window, QStringLiteral("remote-compare-mixed.png"));
}

void tst_RemoteViews::inspectShowsTheFarModelsTensors()
{
    Workspace workspace;
    MainWindow window(&workspace);
    openAndShow(window, "RUN000");
    selectEpochs(window, root("RUN000"), {2});
    QVERIFY(window.action(QStringLiteral("inspectModel"))->isEnabled());
    QTest::keyClick(window.epochTable()->view(), Qt::Key_I, Qt::ControlModifier);
    ModelInspectorDialog* dialog = nullptr;
    QTRY_VERIFY((dialog = window.findChild<ModelInspectorDialog*>()) != nullptr);
    ModelInspector* inspector = dialog->inspector();
    QTRY_VERIFY_WITH_TIMEOUT(inspector->remoteInspection() != nullptr, kConnect);
    QVERIFY2(inspector->header()->text().contains(m_server->host()),
             qPrintable(inspector->header()->text()));
    QVERIFY(dialog->windowTitle().contains(m_server->host()));

    // The far model's tensors, with the statistics computed there.
    fs::path model;
    for (const auto& f : fs::directory_iterator(m_far / "RUN000" / "ckpts" / "epochs" / "002"))
        if (f.path().extension() == ".h5")
            model = f.path();
    auto stats = TensorStats::ofFile(model.string());
    QVERIFY2(stats, stats ? "" : stats.error().message.c_str());
    auto* list = dialog->findChild<QTreeWidget*>(QStringLiteral("tensorList"));
    QVERIFY(list);
    QCOMPARE(list->topLevelItemCount(), int(stats->size()));
    for (int i = 0; i < list->topLevelItemCount(); ++i)
        QCOMPARE(list->topLevelItem(i)->text(0),
                 QString::fromStdString((*stats)[std::size_t(i)].path));
    const TensorStats::Entry& last = stats->back();
    QVERIFY(inspector->selectObject(QString::fromStdString(last.path)));
    QTRY_COMPARE(inspector->statistic(QStringLiteral("mean")),
                 QString::number(last.stats.mean, 'g', 7));
    QCOMPARE(inspector->statistic(QStringLiteral("count")),
             QLocale::c().toString(qulonglong(last.stats.count)));
    keepScreenshot(dialog, QStringLiteral("remote-inspect.png"));
    // What the far answer does not carry, each view says.
    QTabBar* tabs = inspector->tabs()->tabBar();
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(2).center());
    keepScreenshot(dialog, QStringLiteral("remote-inspect-histogram.png"));
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(0).center());
    QVERIFY(inspector->attributeView()->model()->rowCount() >= 2);
    QCOMPARE(inspector->attributeView()->model()->index(0, 0).data().toString(),
             QStringLiteral("host"));
    keepScreenshot(dialog, QStringLiteral("remote-inspect-attributes.png"));
    dialog->close();
}

void tst_RemoteViews::pruneDeletesExactlyThePlannedEpochsThere()
{
    Workspace workspace;
    MainWindow window(&workspace);
    openAndShow(window, "RUN002");
    const fs::path epochs = m_far / "RUN002" / "ckpts" / "epochs";
    std::vector<int> planned;
    // What must stay: the newest epoch and the targets of last and best.
    std::set<int> protect{4, linkedEpoch(epochs.parent_path() / "last"),
                          linkedEpoch(epochs.parent_path() / "best")};
    std::vector<int> expected;
    for (int e = 1; e <= 4; ++e)
        if (!protect.count(e))
            expected.push_back(e);
    answerNextDialog(QStringLiteral("Delete "), [&](QDialog* d) {
        auto* dialog = qobject_cast<PruneDialog*>(d);
        QVERIFY(dialog);
        QVERIFY(dialog->windowTitle().contains(m_server->host()));
        dialog->keepLimitBox()->selectAll();
        QTest::keyClicks(dialog->keepLimitBox(), QStringLiteral("1"));
        QTRY_VERIFY(dialog->plan() && dialog->plan()->policy.keepLimit == 1);
        planned = dialog->epochsToDelete();
        keepScreenshot(dialog, QStringLiteral("remote-prune.png"));
    });
    window.sidebar()->view()->setFocus();
    QTest::keyClick(window.sidebar()->view(), Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(planned, expected);
    const auto name = [](int e) { return QStringLiteral("%1").arg(e, 3, 10, QLatin1Char('0')); };
    const auto left = [&epochs] {
        QStringList names;
        for (const auto& e : fs::directory_iterator(epochs))
            names << QString::fromStdString(e.path().filename().string());
        names.sort();
        return names;
    };
    QStringList kept;
    for (const int e : protect)
        kept << name(e);
    // Each goes as a whole (renamed aside, then removed): in the end only these.
    QTRY_COMPARE_WITH_TIMEOUT(left(), kept, kConnect);
    // The table follows (the far watch and the read-back).
    QTRY_COMPARE_WITH_TIMEOUT(window.epochTable()->view()->model()->rowCount(), int(protect.size()),
                              kConnect);
    // The status bar says what was deleted, and where.
    const auto status = [&window] {
        QStringList texts;
        for (const QLabel* l : window.statusBar()->findChildren<QLabel*>())
            texts << l->text();
        return texts.join(QLatin1Char('\n'));
    };
    QTRY_VERIFY2(status().contains(QStringLiteral("Pruned")) && status().contains(m_server->host()),
                 qPrintable(status()));
}

void tst_RemoteViews::repairFixesABrokenFarLastLink()
{
    // `last` as a copy elsewhere left it: absolute, into a folder that is not there.
    const fs::path last = m_far / "RUN001" / "ckpts" / "last";
    const int was = linkedEpoch(last);
    QVERIFY(was > 0);
    fs::remove(last);
    fs::create_directory_symlink(QStringLiteral("/gone/elsewhere/ckpts/epochs/%1")
                                     .arg(was, 3, 10, QLatin1Char('0'))
                                     .toStdString(),
                                 last);
    Workspace workspace;
    MainWindow window(&workspace);
    openAndShow(window, "RUN001");
    QTableView* problems = window.problemsPanel()->view();
    QTRY_VERIFY_WITH_TIMEOUT(problems->model()->rowCount() > 0, kConnect);
    window.action(QStringLiteral("focusProblems"))->trigger();
    QModelIndex row;
    for (int r = 0; r < problems->model()->rowCount(); ++r)
        if (problems->model()->index(r, 0).data(roles::RunRootRole).toString() == root("RUN001"))
            row = problems->model()->index(r, 1);
    QVERIFY(row.isValid());
    QTest::mouseClick(problems->viewport(), Qt::LeftButton, {}, problems->visualRect(row).center());
    QPushButton* repair = window.problemsPanel()->repairButton();
    QTRY_VERIFY(repair->isEnabled());
    QVERIFY(window.problemsPanel()->repairAllButton()->isEnabled());
    QVERIFY(!window.problemsPanel()->openButton()->isEnabled());
    keepScreenshot(&window, QStringLiteral("remote-repair.png"));
    QTest::mouseClick(repair, Qt::LeftButton);
    // Repaired there: relative, at the epoch it was shown as.
    QTRY_VERIFY_WITH_TIMEOUT(fs::read_symlink(last).is_relative(), kConnect);
    QCOMPARE(linkedEpoch(last), was);
    QTRY_COMPARE_WITH_TIMEOUT(problems->model()->rowCount(), 0, kConnect);
    // And it can be undone like a local repair.
    QVERIFY(window.undoStack()->canUndo());
}

void tst_RemoteViews::undoAfterRemoteMakeLastMovesTheFarLinkBack()
{
    const fs::path last = m_far / "RUN001" / "ckpts" / "last";
    const int was = linkedEpoch(last);
    QVERIFY(was > 2);
    Workspace workspace;
    MainWindow window(&workspace);
    openAndShow(window, "RUN001");
    selectEpochs(window, root("RUN001"), {2});
    QSignalSpy operations(&workspace, &Workspace::operationFinished);
    answerNextDialog(QStringLiteral("Yes"));
    QTest::keyClick(window.epochTable()->view(), Qt::Key_L, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(linkedEpoch(last), 2, kConnect);
    QTRY_VERIFY_WITH_TIMEOUT(window.undoStack()->canUndo(), kConnect);
    QVERIFY(window.action(QStringLiteral("undo"))->text().contains(QStringLiteral("last")));
    // Edit ▸ Undo: the far ckpt reverts its journalled relink.
    // (The offscreen platform does not hand activation back after a dialog.)
    // It is offered once the run as held shows the relink, and asks first.
    QTRY_VERIFY_WITH_TIMEOUT(window.action(QStringLiteral("undo"))->isEnabled(), kConnect);
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    answerNextDialog(QStringLiteral("Yes"));
    QTest::keyClick(window.epochTable()->view(), Qt::Key_Z, Qt::ControlModifier);
    QTRY_COMPARE_WITH_TIMEOUT(linkedEpoch(last), was, kConnect);
    QTRY_VERIFY_WITH_TIMEOUT(operations.size() >= 2, kConnect);
    QCOMPARE(operations.last().at(1).toString(), QStringLiteral("undo"));
    QCOMPARE(operations.last().at(2).toString(), QString());
    // The table shows it too (the far watch).
    QTRY_COMPARE_WITH_TIMEOUT(workspace.state(root("RUN001"))->run.linkedEpoch("last"),
                              std::optional<int>(was), kConnect);
}

void tst_RemoteViews::cancelAndANewPairEndTheFarDiff()
{
    // A far ckpt whose diff of epochs 2 and 4 takes its time (until the client
    // goes away, as the real one with --exit-on-eof); others are quick.
    const fs::path slow = fs::path(m_tmp.path().toStdString()) / "slow-2-ckpt";
    {
        std::ofstream out(slow);
        out << "#!/bin/sh\nif [ \"$1\" = diff ] && [ \"$4\" = 2 ]; then timeout 20 cat >/dev/null; "
               "fi\nexec " CKPT_CLI_PATH " \"$@\"\n";
    }
    fs::permissions(slow, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
    QSettings().setValue(QStringLiteral("remote/ckpt/") + m_server->host(),
                         QString::fromStdString(slow.string()));
    const std::string farDiff = "/bin/sh " + slow.string() + " diff";
    Workspace workspace;
    MainWindow window(&workspace);
    openAndShow(window, "RUN000");
    selectEpochs(window, root("RUN000"), {2, 4});
    QTest::keyClick(window.epochTable()->view(), Qt::Key_D, Qt::ControlModifier);
    CompareView* view = window.compareView();
    WeightsDiffView* weights = view->weightsView();
    QTabBar* tabs = view->tabs()->tabBar();
    QTRY_VERIFY(tabs->isVisible());
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(1).center());
    QTRY_VERIFY_WITH_TIMEOUT(farProcessRuns(farDiff), kConnect);
    // Cancel: the connection is ended and the far diff with it.
    QTest::mouseClick(weights->cancelButton(), Qt::LeftButton);
    QCOMPARE(weights->summary()->text(), QStringLiteral("Comparison cancelled."));
    QTRY_VERIFY_WITH_TIMEOUT(!farProcessRuns(farDiff), kConnect);

    // Again, and while it runs another pair is compared: only that one is shown.
    QTest::keyClick(weights->tensorView(), Qt::Key_D, Qt::ControlModifier);
    QVERIFY(weights->isRunning());
    QTRY_VERIFY_WITH_TIMEOUT(farProcessRuns(farDiff), kConnect);
    QSignalSpy finished(weights, &WeightsDiffView::finished);
    window.action(QStringLiteral("focusTable"))->trigger();
    selectEpochs(window, root("RUN000"), {1, 3});
    QTest::keyClick(window.epochTable()->view(), Qt::Key_D, Qt::ControlModifier);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    QVERIFY2(finished.first().at(0).toBool(), qPrintable(weights->summary()->text()));
    QVERIFY2(weights->summary()->text().contains(QStringLiteral("epoch 1")) &&
                 weights->summary()->text().contains(QStringLiteral("epoch 3")),
             qPrintable(weights->summary()->text()));
    QVERIFY(weights->diff() && !weights->diff()->tensors.empty());
    QTRY_VERIFY_WITH_TIMEOUT(!farProcessRuns(farDiff), kConnect);
    // The dropped (2, 4) result never arrives over it.
    QTest::qWait(300);
    QCOMPARE(finished.size(), 1);
}

void tst_RemoteViews::droppedConnectionDuringADiffSaysSo()
{
    // A far ckpt whose diff takes its time (until the connection goes), so
    // that the drop lands mid-way.
    const fs::path slow = fs::path(m_tmp.path().toStdString()) / "slow-ckpt";
    {
        std::ofstream out(slow);
        out << "#!/bin/sh\nif [ \"$1\" = diff ]; then timeout 20 cat >/dev/null; "
               "fi\nexec " CKPT_CLI_PATH " \"$@\"\n";
    }
    fs::permissions(slow, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read);
    QSettings().setValue(QStringLiteral("remote/ckpt/") + m_server->host(),
                         QString::fromStdString(slow.string()));
    Workspace workspace;
    workspace.remote()->setBackoff(500, 1000);
    MainWindow window(&workspace);
    openAndShow(window, "RUN000");
    selectEpochs(window, root("RUN000"), {2, 4});
    QTest::keyClick(window.epochTable()->view(), Qt::Key_D, Qt::ControlModifier);
    CompareView* view = window.compareView();
    WeightsDiffView* weights = view->weightsView();
    QSignalSpy finished(weights, &WeightsDiffView::finished);
    QTabBar* tabs = view->tabs()->tabBar();
    QTRY_VERIFY(tabs->isVisible());
    QTest::mouseClick(tabs, Qt::LeftButton, {}, tabs->tabRect(1).center());
    QVERIFY(weights->isRunning());
    QVERIFY(weights->cancelButton()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(farProcessRuns("/bin/sh " + slow.string() + " diff"), kConnect);
    keepScreenshot(&window, QStringLiteral("remote-compare-busy.png"));
    m_server->dropConnections();
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), kConnect);
    QVERIFY(!finished.first().at(0).toBool());
    const QString text = weights->summary()->text();
    QVERIFY2(text.contains(m_server->host()) && text.contains(QStringLiteral("dropped")),
             qPrintable(text));
    keepScreenshot(&window, QStringLiteral("remote-compare-dropped.png"));
    // Nothing half-done: no diff shown, nothing left running there.
    QVERIFY(!weights->diff());
    QCOMPARE(weights->tensorModel()->rowCount(), 0);
    QVERIFY(!weights->cancelButton()->isVisible());
    QTRY_VERIFY_WITH_TIMEOUT(!farProcessRuns(std::string(CKPT_CLI_PATH) + " diff"), kConnect);
}

QTEST_MAIN(tst_RemoteViews)
#include "tst_RemoteViews.moc"
