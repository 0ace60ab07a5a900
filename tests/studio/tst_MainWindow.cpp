#include "CandleFixture.h"
#include "ExperimentsController.h"
#include "MainWindow.h"
#include "PruneCommand.h"
#include "common/MessageBanner.h"
#include "compare/CompareView.h"
#include "compare/WeightsDiffView.h"
#include "dialogs/PruneDialog.h"
#include "experiments/ExperimentsPanel.h"
#include "model/ModelInspector.h"
#include "model/ModelInspectorDialog.h"
#include "models/CompareModel.h"
#include "models/EpochTableModel.h"
#include "models/ModelRoles.h"
#include "models/ProblemsModel.h"
#include "models/RunTreeModel.h"
#include "plot/MetricPlot.h"
#include "plotpanel/PlotPanel.h"
#include "problems/ProblemsPanel.h"
#include "session/RunOperations.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QAbstractButton>
#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMimeData>
#include <QProcess>
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
#include <QUndoStack>
#include <QUrl>

#include <functional>

using namespace ckpt;
using test::CandleFixture;

class tst_MainWindow : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void dropFolderAddsItsRuns_data();
    void dropFolderAddsItsRuns();
    void openingWhatIsNotAFolderSaysWhy();
    void statusCountStaysTrueWhenRunsComeAndGo();
    void selectingRunsFillsTheTable();
    void rollbackChangesLinkAndUndoRestoresIt();
    void staleRedoIsDisabledAfterAnOutsideRelink();
    void pruneEnterDeletesNothingAndTrashIsUndoable();
    void repairRelocatedLinkFromProblems();
    void verifyMarksCorruptedEpoch();
    void verifiedFileCorruptedFromAShellIsLoud();
    void trainerWritingAnEpochAddsARow();
    void plotHasOneGraphPerChosenMetric();
    void compareTwoEpochsOfTwoRuns();
    void dropModelFileOpensInspector();
    void inspectModelFromEpochTable();
    void experimentsTabAndShowInBrowser();

private:
    static void clickRow(EpochTableView* table, int epoch, const QString& root);
    // Clicks `button` of the next modal dialog once it is open; records its text.
    static void answerNextDialog(const QString& button, QString* text);
    static void makeRun(const std::filesystem::path& root, int epochs);
};

void tst_MainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("ckpt-studio-tests"));
    QApplication::setApplicationName(QStringLiteral("tst_MainWindow"));
}

void tst_MainWindow::init()
{
    QSettings().clear();
}

void tst_MainWindow::makeRun(const std::filesystem::path& root, int epochs)
{
    CandleFixture f(root);
    for (int e = 1; e <= epochs; ++e)
        f.addEpoch(e, 1.0 / e, 64, e == 1);
    f.linkAbsolute("last", epochs);
    f.linkAbsolute("best", epochs);
}

void tst_MainWindow::dropFolderAddsItsRuns_data()
{
    QTest::addColumn<QStringList>("runs");
    QTest::newRow("one run") << QStringList{"RUN000/ckpts"};
    QTest::newRow("experiment tree")
        << QStringList{"EXP/RUN000/ckpts", "EXP/RUN001/save/ckpts", "other/deep/er/ckpts"};
}

void tst_MainWindow::dropFolderAddsItsRuns()
{
    QFETCH(QStringList, runs);
    QTemporaryDir dir;
    const std::filesystem::path base = dir.path().toStdString();
    for (const QString& r : runs)
        makeRun(base / r.toStdString(), 3);

    Workspace workspace;
    MainWindow window(&workspace);
    window.resize(1000, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(dir.path())});
    const QPoint pos = window.rect().center();
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    QVERIFY(drop.isAccepted());

    QTRY_COMPARE(workspace.runRoots().size(), runs.size());
    QTRY_VERIFY(workspace.isIdle());
    QCOMPARE(workspace.folders(), QStringList{QDir::cleanPath(dir.path())});
    // The sidebar shows folder > run, and the first run is selected and tabled.
    QTreeView* tree = window.sidebar()->view();
    QCOMPARE(tree->model()->rowCount(), 1);
    QCOMPARE(tree->model()->rowCount(tree->model()->index(0, 0)), runs.size());
    QCOMPARE(window.sidebar()->selectedRuns().size(), 1);
    QCOMPARE(workspace.epochTable()->rowCount(), 3);
    // Remembered for the next session and in the recent folders.
    window.close();
    QCOMPARE(QSettings().value("session/folders").toStringList(), workspace.folders());
    QVERIFY(QSettings().value("recentFolders").toStringList().contains(dir.path()));
}

// `ckpt-studio PATH` with a mistyped path, or a file: the status bar says
// which, and nothing is opened.
void tst_MainWindow::openingWhatIsNotAFolderSaysWhy()
{
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("no-such-experiment"));
    const QString file = dir.filePath(QStringLiteral("model.h5"));
    QFile(file).open(QIODevice::WriteOnly);
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto status = [&] { return window.statusBar()->findChild<QLabel*>()->text(); };

    window.openFolders({missing});
    QCOMPARE(status(), QStringLiteral("No such folder: ") + missing);
    window.openFolders({file});
    QCOMPARE(status(), QStringLiteral("Not a folder: ") + file + QStringLiteral(" is a file"));
    QVERIFY(workspace.folders().isEmpty());
}

// The scan's "FOLDER: 3 runs" in the status bar is recounted when a run is
// deleted or made after the scan; it said 3 with 2 left in the sidebar.
void tst_MainWindow::statusCountStaysTrueWhenRunsComeAndGo()
{
    QTemporaryDir dir;
    const std::filesystem::path base = dir.path().toStdString();
    for (const char* r : {"RUN000/ckpts", "RUN001/ckpts", "RUN002/ckpts"})
        makeRun(base / r, 2);
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto status = [&] { return window.statusBar()->findChild<QLabel*>()->text(); };
    const QString folder = QDir::cleanPath(dir.path());

    window.openFolders({dir.path()});
    QTRY_VERIFY(workspace.isIdle());
    QCOMPARE(status(), folder + QStringLiteral(": 3 runs"));
    std::filesystem::remove_all(base / "RUN002");
    QTRY_COMPARE(status(), folder + QStringLiteral(": 2 runs"));
    QCOMPARE(workspace.runRoots().size(), 2);
    makeRun(base / "RUN003" / "ckpts", 2);
    QTRY_COMPARE(status(), folder + QStringLiteral(": 3 runs"));

    // A later message is not the count's to replace.
    const QString missing = dir.filePath(QStringLiteral("no-such-experiment"));
    window.openFolders({missing});
    std::filesystem::remove_all(base / "RUN003");
    QTRY_COMPARE(workspace.runRoots().size(), 2);
    QCOMPARE(status(), QStringLiteral("No such folder: ") + missing);
}

void tst_MainWindow::selectingRunsFillsTheTable()
{
    QTemporaryDir dir;
    const std::filesystem::path base = dir.path().toStdString();
    makeRun(base / "a/ckpts", 4);
    makeRun(base / "b/ckpts", 2);
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({dir.path()});
    QTRY_COMPARE(workspace.runRoots().size(), 2);
    QTRY_VERIFY(workspace.isIdle());

    // Real input: click the folder row, which stands for all its runs.
    QTreeView* tree = window.sidebar()->view();
    const QModelIndex folder = tree->model()->index(0, 0);
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, tree->visualRect(folder).center());
    QTRY_COMPARE(workspace.shownRuns().size(), 2);
    QCOMPARE(workspace.epochTable()->rowCount(), 6);
    // The Run column appears with two runs.
    const int runCol = workspace.epochTable()->columnOf(EpochTableModel::ColumnKind::Run);
    QVERIFY(!window.epochTable()->view()->isColumnHidden(runCol));

    // Keyboard: Down moves to the first run alone.
    tree->setFocus();
    QTest::keyClick(tree, Qt::Key_Down);
    QTRY_COMPARE(workspace.shownRuns().size(), 1);
    QCOMPARE(workspace.epochTable()->rowCount(), 4);
    QVERIFY(window.epochTable()->view()->isColumnHidden(runCol));

    // Copy rows: select two with the keyboard, Ctrl+C puts header + rows on the clipboard.
    QTableView* table = window.epochTable()->view();
    table->setFocus();
    QTest::keyClick(table, Qt::Key_Home, Qt::ControlModifier);
    QTest::keyClick(table, Qt::Key_Down, Qt::ShiftModifier);
    QCOMPARE(window.epochTable()->selectedEpochs().size(), 2);
    QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);
    const QStringList lines = QApplication::clipboard()->text().trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    QVERIFY(lines[0].startsWith("Epoch\t"));
    QVERIFY(lines[1].startsWith("1\t"));
    // CSV holds raw values for machines (bytes, full-precision numbers), not "64 B".
    const QStringList csv = window.epochTable()->tableAsCsv().trimmed().split('\n');
    const QStringList head = csv[0].split(',');
    QVERIFY2(head.startsWith("epoch") && head.contains("model_bytes"), qPrintable(csv[0]));
    QCOMPARE(csv[1].split(',').value(head.indexOf("model_bytes")), QString("64"));
    QVERIFY2(!csv.join('\n').contains(" B"), qPrintable(csv.join('\n')));
    // CSV of the whole (filtered) table; filtering by text narrows it.
    QCOMPARE(window.epochTable()->tableAsCsv().trimmed().split('\n').size(), 5);
    QTest::keyClicks(window.epochTable()->filterEdit(), "13:00:03");
    QCOMPARE(window.epochTable()->tableAsCsv().trimmed().split('\n').size(), 2);
}

void tst_MainWindow::clickRow(EpochTableView* table, int epoch, const QString& root)
{
    QTableView* view = table->view();
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        const QModelIndex i = view->model()->index(r, 1);
        if (i.data(roles::EpochRole).toInt() == epoch &&
            i.data(roles::RunRootRole).toString() == root) {
            view->scrollTo(i);
            QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(i).center());
            return;
        }
    }
    QFAIL("row not found");
}

void tst_MainWindow::answerNextDialog(const QString& button, QString* text)
{
    QTimer::singleShot(0, qApp, [button, text] {
        auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog);
        if (auto* label = dialog->findChild<QLabel*>(QStringLiteral("description")))
            *text = label->text();
        for (auto* b : dialog->findChildren<QAbstractButton*>())
            if (b->text().remove(QLatin1Char('&')) == button) {
                // A rollback's button waits for the target's health check.
                QTRY_VERIFY(b->isEnabled());
                QTest::mouseClick(b, Qt::LeftButton);
                return;
            }
        dialog->reject();
    });
}

static std::filesystem::path linkTarget(const std::filesystem::path& link)
{
    return std::filesystem::canonical(link);
}

void tst_MainWindow::rollbackChangesLinkAndUndoRestoresIt()
{
    QTemporaryDir dir;
    const std::filesystem::path root = std::filesystem::path(dir.path().toStdString()) / "r/ckpts";
    makeRun(root, 5);
    CandleFixture fixture(root);
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({dir.path()});
    QTRY_VERIFY(workspace.isIdle() && workspace.epochTable()->rowCount() == 5);
    const QString rootText = QString::fromStdString(root.string());

    clickRow(window.epochTable(), 3, rootText);
    QVERIFY(window.action("makeLast")->isEnabled());
    QString description;
    answerNextDialog(QStringLiteral("Make last"), &description);
    QTest::keyClick(window.epochTable()->view(), Qt::Key_L, Qt::ControlModifier);
    // The confirmation names the epochs a restart from 3 would overwrite.
    QVERIFY2(description.contains("4, 5"), qPrintable(description));
    QTRY_COMPARE(linkTarget(root / "last"), linkTarget(fixture.epochDir(3)));
    // The table follows: the last badge moved to epoch 3.
    QTRY_VERIFY(workspace.epochTable()
                    ->index(workspace.epochTable()->rowOf(rootText, 3), 0)
                    .data(roles::IsLastRole)
                    .toBool());
    QTRY_COMPARE(window.undoStack()->count(), 1);
    // The run is read again after the change; the epoch stays selected.
    QTRY_VERIFY(workspace.isIdle());
    QCOMPARE(window.epochTable()->selectedEpochs().size(), qsizetype(1));
    QCOMPARE(window.epochTable()->selectedEpochs().first().root, rootText);
    QCOMPARE(window.epochTable()->selectedEpochs().first().epoch, 3);
    QVERIFY(window.action("makeLast")->isEnabled());

    // Edit > Undo puts the link back, after the same check Make Last runs.
    // (The offscreen platform does not hand activation back after a dialog.)
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QVERIFY(window.action("undo")->isEnabled());
    QVERIFY2(window.action("undo")->text().contains("RUN") ||
                 window.action("undo")->text().contains("last → epoch 3"),
             qPrintable(window.action("undo")->text()));
    answerNextDialog(QStringLiteral("Make last"), &description);
    QTest::keyClick(window.epochTable()->view(), Qt::Key_Z, Qt::ControlModifier);
    QVERIFY2(description.contains("epoch <b>5</b>"), qPrintable(description));
    QTRY_COMPARE(linkTarget(root / "last"), linkTarget(fixture.epochDir(5)));
    QTRY_VERIFY(workspace.isIdle());
    QVERIFY(workspace.run(rootText)->linkedEpoch("last") == 5);

    // Cancelling the confirmation changes nothing.
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    clickRow(window.epochTable(), 2, rootText);
    answerNextDialog(QStringLiteral("Cancel"), &description);
    const int undoCount = window.undoStack()->count();
    QTest::keyClick(window.epochTable()->view(), Qt::Key_L, Qt::ControlModifier);
    // The dialog ran modally inside the key press: had it relinked, the
    // operation would be under way now.
    QCOMPARE(workspace.operations()->pending(), 0);
    workspace.flushWatcher();
    QCOMPARE(window.undoStack()->count(), undoCount);
    QCOMPARE(linkTarget(root / "last"), linkTarget(fixture.epochDir(5)));
}

// After an undo, the run changes under the redo step (a relink from a shell):
// Redo is disabled, says why, and its shortcut does nothing.
void tst_MainWindow::staleRedoIsDisabledAfterAnOutsideRelink()
{
    QTemporaryDir dir;
    const std::filesystem::path root = std::filesystem::path(dir.path().toStdString()) / "r/ckpts";
    makeRun(root, 5);
    CandleFixture fixture(root);
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({dir.path()});
    QTRY_VERIFY(workspace.isIdle() && workspace.epochTable()->rowCount() == 5);
    const QString rootText = QString::fromStdString(root.string());
    QVERIFY(!window.action("undo")->isEnabled());
    QVERIFY(!window.action("redo")->isEnabled());

    clickRow(window.epochTable(), 3, rootText);
    QString description;
    answerNextDialog(QStringLiteral("Make last"), &description);
    QTest::keyClick(window.epochTable()->view(), Qt::Key_L, Qt::ControlModifier);
    QTRY_COMPARE(linkTarget(root / "last"), linkTarget(fixture.epochDir(3)));
    QTRY_VERIFY(workspace.isIdle() && workspace.run(rootText)->linkedEpoch("last") == 3);
    QTRY_VERIFY(window.action("undo")->isEnabled());
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    answerNextDialog(QStringLiteral("Make last"), &description);
    QTest::keySequence(&window, window.action("undo")->shortcut());
    QTRY_COMPARE(linkTarget(root / "last"), linkTarget(fixture.epochDir(5)));
    QTRY_VERIFY(workspace.isIdle() && workspace.run(rootText)->linkedEpoch("last") == 5);
    QTRY_VERIFY(window.action("redo")->isEnabled());
    QVERIFY2(window.action("redo")->text().contains("last → epoch 3"),
             qPrintable(window.action("redo")->text()));

    // Someone moves `last` from a shell: the redo no longer matches the run.
    fixture.linkAbsolute("last", 4);
    QTRY_VERIFY(workspace.run(rootText)->linkedEpoch("last") == 4);
    QTRY_VERIFY(!window.action("redo")->isEnabled());
    QVERIFY2(window.action("redo")->toolTip().contains("moved since"),
             qPrintable(window.action("redo")->toolTip()));
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keySequence(&window, window.action("redo")->shortcut());
    QCOMPARE(workspace.operations()->pending(), 0);
    QCOMPARE(linkTarget(root / "last"), linkTarget(fixture.epochDir(4)));

    // The link goes back by hand, but the run saved epoch 6 since: still stale.
    fixture.linkAbsolute("last", 5);
    fixture.addEpoch(6, 1.0 / 6, 64);
    QTRY_VERIFY(workspace.run(rootText)->findEpoch(6) != nullptr &&
                workspace.run(rootText)->linkedEpoch("last") == 5);
    QTRY_VERIFY2(window.action("redo")->toolTip().contains("saved epoch 6"),
                 qPrintable(window.action("redo")->toolTip()));
    QVERIFY(!window.action("redo")->isEnabled());
}

// Enter in the prune dialog cancels it; "Move to Trash" moves the epochs to
// the desktop trash, Edit > Undo brings them back, Redo trashes them again.
void tst_MainWindow::pruneEnterDeletesNothingAndTrashIsUndoable()
{
    QTemporaryDir dir;
    const std::filesystem::path root = std::filesystem::path(dir.path().toStdString()) / "r/ckpts";
    makeRun(root, 6);
    CandleFixture fixture(root);
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({dir.path()});
    QTRY_VERIFY(workspace.isIdle() && workspace.epochTable()->rowCount() == 6);
    const QString rootText = QString::fromStdString(root.string());
    window.sidebar()->selectRuns({rootText});
    QTRY_VERIFY(window.action("prune")->isEnabled());
    const auto epochsOnDisk = [&] {
        QStringList names;
        for (const auto& e : std::filesystem::directory_iterator(root / "epochs"))
            names << QString::fromStdString(e.path().filename().string());
        names.sort();
        return names;
    };
    const QStringList all{"001", "002", "003", "004", "005", "006"};

    // Opens the dialog, keeps 2 and, once the plan shows 4 epochs to go, does `act`.
    const auto prune = [&](const std::function<void(PruneDialog*)>& act) {
        QTimer::singleShot(0, qApp, [act] {
            auto* dialog = qobject_cast<PruneDialog*>(QApplication::activeModalWidget());
            QVERIFY(dialog);
            QSpinBox* box = dialog->keepLimitBox();
            box->setFocus();
            box->selectAll();
            QTest::keyClicks(box, "2");
            QTRY_VERIFY(dialog->plan() && dialog->plan()->policy.keepLimit == 2);
            QCOMPARE(dialog->epochsToDelete().size(), std::size_t(4));
            act(dialog);
        });
        QTest::keySequence(&window, window.action("prune")->shortcut());
    };

    // Enter, with the focus in the dialog as it opens and on each button: nothing goes.
    prune([](PruneDialog* dialog) {
        QVERIFY(dialog->trashButton()->isEnabled() && dialog->deleteButton()->isEnabled());
        QVERIFY(!dialog->trashButton()->isDefault() && !dialog->deleteButton()->isDefault());
        dialog->deleteButton()->setFocus();
        QTest::keyClick(dialog->deleteButton(), Qt::Key_Return);
        QVERIFY(dialog->isVisible() == false || dialog->result() == QDialog::Rejected);
    });
    QCOMPARE(workspace.operations()->pending(), 0);
    QCOMPARE(epochsOnDisk(), all);
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    prune([](PruneDialog* dialog) {
        dialog->trashButton()->setFocus();
        QTest::keyClick(dialog->trashButton(), Qt::Key_Enter);
        QVERIFY(dialog->isVisible() == false || dialog->result() == QDialog::Rejected);
    });
    QCOMPARE(workspace.operations()->pending(), 0);
    QCOMPARE(epochsOnDisk(), all);

    // Move to Trash: gone from the run, in the trash, and one undo step.
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    prune([](PruneDialog* dialog) { QTest::mouseClick(dialog->trashButton(), Qt::LeftButton); });
    QTRY_COMPARE(epochsOnDisk(), (QStringList{"005", "006"}));
    QTRY_COMPARE(window.undoStack()->count(), 1);
    QTRY_VERIFY(workspace.isIdle() && workspace.epochTable()->rowCount() == 2);
    const auto* step = dynamic_cast<const PruneCommand*>(window.undoStack()->command(0));
    QVERIFY(step);
    QCOMPARE(step->trashed().size(), std::size_t(4));
    for (const TrashedEpoch& t : step->trashed())
        QVERIFY(
            std::filesystem::is_regular_file(std::filesystem::path(t.item.trashed) / "model.h5"));
    QVERIFY2(window.action("undo")->text().contains("prune of epochs 1, 2, 3, 4"),
             qPrintable(window.action("undo")->text()));

    // Undo: back where they were, the .trashinfo files gone.
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTRY_VERIFY(window.action("undo")->isEnabled());
    QTest::keySequence(&window, window.action("undo")->shortcut());
    QTRY_COMPARE(epochsOnDisk(), all);
    for (const TrashedEpoch& t : step->trashed())
        QVERIFY(!std::filesystem::exists(t.item.info));
    QTRY_VERIFY(workspace.isIdle() && workspace.epochTable()->rowCount() == 6);

    // Redo asks, with Cancel as the default, then trashes the same epochs again;
    // a second undo finds them under their new trash names.
    QTRY_VERIFY(window.action("redo")->isEnabled());
    QString question;
    answerNextDialog(QStringLiteral("Move to Trash"), &question);
    QTest::keySequence(&window, window.action("redo")->shortcut());
    QTRY_COMPARE(epochsOnDisk(), (QStringList{"005", "006"}));
    QTRY_VERIFY(workspace.isIdle() && window.action("undo")->isEnabled());
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QTest::keySequence(&window, window.action("undo")->shortcut());
    QTRY_COMPARE(epochsOnDisk(), all);
}

void tst_MainWindow::repairRelocatedLinkFromProblems()
{
    QTemporaryDir dir;
    const std::filesystem::path root = std::filesystem::path(dir.path().toStdString()) / "r/ckpts";
    makeRun(root, 3);
    // As after an rsync from a cluster: the absolute target no longer exists.
    std::filesystem::remove(root / "best");
    std::filesystem::create_directory_symlink("/cluster/gone/r/ckpts/epochs/002", root / "best");
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({dir.path()});
    QTRY_VERIFY(workspace.isIdle() && workspace.problems()->rowCount() > 0);

    window.action("focusProblems")->trigger();
    QTableView* view = window.problemsPanel()->view();
    int row = -1;
    for (int r = 0; r < view->model()->rowCount(); ++r)
        if (view->model()->index(r, 0).data(roles::RepairableRole).toBool())
            row = r;
    QVERIFY(row >= 0);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {},
                      view->visualRect(view->model()->index(row, 0)).center());
    QVERIFY(window.problemsPanel()->repairButton()->isEnabled());
    QTest::mouseClick(window.problemsPanel()->repairButton(), Qt::LeftButton);
    QTRY_COMPARE(std::filesystem::read_symlink(root / "best").string(), std::string("epochs/002"));
    QTRY_VERIFY(workspace.isIdle());
}

void tst_MainWindow::verifyMarksCorruptedEpoch()
{
    QTemporaryDir dir;
    const std::filesystem::path root = std::filesystem::path(dir.path().toStdString()) / "r/ckpts";
    makeRun(root, 4);
    CandleFixture fixture(root);
    // One flipped byte in epoch 2's model: its CRC no longer matches.
    std::string bytes = CandleFixture::readText(fixture.epochDir(2) / "model.h5");
    bytes[10] = static_cast<char>(bytes[10] ^ 0x5a);
    fixture.writeModel(2, bytes);
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    window.openFolders({dir.path()});
    QTRY_VERIFY(workspace.isIdle() && workspace.epochTable()->rowCount() == 4);
    const QString rootText = QString::fromStdString(root.string());

    // Run > Verify Selected Runs, from the keyboard.
    window.sidebar()->view()->setFocus();
    QTest::keyClick(window.sidebar()->view(), Qt::Key_R, Qt::ControlModifier);
    EpochTableModel* table = workspace.epochTable();
    const auto stateOf = [&](int epoch) {
        return static_cast<ChecksumState>(
            table->index(table->rowOf(rootText, epoch), 0).data(roles::ChecksumStateRole).toInt());
    };
    QTRY_COMPARE(stateOf(2), ChecksumState::Mismatch);
    QCOMPARE(stateOf(1), ChecksumState::Ok);
    QCOMPARE(stateOf(4), ChecksumState::Ok);
    QCOMPARE(table
                 ->index(table->rowOf(rootText, 2),
                         table->columnOf(EpochTableModel::ColumnKind::Checksum))
                 .data()
                 .toString(),
             QString("MISMATCH"));
    // The sidebar's run badge says so too.
    QTRY_COMPARE(
        static_cast<ChecksumState>(
            workspace.runTree()->indexOfRun(rootText).data(roles::ChecksumStateRole).toInt()),
        ChecksumState::Mismatch);
    QTRY_VERIFY(workspace.isIdle());
}

// A verified model file corrupted from a shell: no user action, and within
// seconds it is "changed since verified", then MISMATCH with a problem, a
// red run badge and an alert naming the file.
void tst_MainWindow::verifiedFileCorruptedFromAShellIsLoud()
{
    QTemporaryDir dir;
    const std::filesystem::path root = std::filesystem::path(dir.path().toStdString()) / "r/ckpts";
    makeRun(root, 3);
    CandleFixture fixture(root);
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    window.openFolders({dir.path()});
    QTRY_VERIFY(workspace.isIdle() && workspace.epochTable()->rowCount() == 3);
    const QString rootText = QString::fromStdString(root.string());
    EpochTableModel* table = workspace.epochTable();
    const auto stateOf = [&](int epoch) {
        return static_cast<ChecksumState>(
            table->index(table->rowOf(rootText, epoch), 0).data(roles::ChecksumStateRole).toInt());
    };
    window.sidebar()->view()->setFocus();
    QTest::keyClick(window.sidebar()->view(), Qt::Key_R, Qt::ControlModifier);
    QTRY_COMPARE(stateOf(2), ChecksumState::Ok);
    QTRY_VERIFY(workspace.isIdle());
    QSignalSpy alerts(&workspace, &Workspace::alert);
    QSignalSpy states(table, &QAbstractItemModel::dataChanged);

    // One byte flipped in place, as `dd conv=notrunc` would.
    const std::filesystem::path model = fixture.epochDir(2) / "model.h5";
    std::string bytes = CandleFixture::readText(model);
    bytes[10] = static_cast<char>(bytes[10] ^ 0x5a);
    fixture.writeModel(2, bytes);

    QTRY_VERIFY_WITH_TIMEOUT(stateOf(2) == ChecksumState::Changed ||
                                 stateOf(2) == ChecksumState::Verifying ||
                                 stateOf(2) == ChecksumState::Mismatch,
                             5000);
    QTRY_COMPARE_WITH_TIMEOUT(stateOf(2), ChecksumState::Mismatch, 10000);
    QCOMPARE(stateOf(1), ChecksumState::Ok); // only the changed file was verified again
    QTRY_COMPARE(alerts.size(), 1);
    const QString alert = alerts.first().first().toString();
    QVERIFY2(alert.contains(QString::fromStdString(model.string())) && alert.contains("MISMATCH"),
             qPrintable(alert));
    QVERIFY2(window.banner()->isVisible() && window.banner()->text().contains("MISMATCH"),
             qPrintable(window.banner()->text()));
    QTRY_COMPARE(
        static_cast<ChecksumState>(
            workspace.runTree()->indexOfRun(rootText).data(roles::ChecksumStateRole).toInt()),
        ChecksumState::Mismatch);
    bool problem = false;
    for (int r = 0; r < workspace.problems()->rowCount(); ++r)
        problem =
            problem || workspace.problems()->problemAt(r)->kind == ProblemKind::ChecksumMismatch;
    QVERIFY(problem);
    QTRY_VERIFY(workspace.isIdle());
}

void tst_MainWindow::trainerWritingAnEpochAddsARow()
{
    const QString trainer = qEnvironmentVariable("CKPT_TEST_BINARY_DIR") +
                            QStringLiteral("/app/trainer/ckpt-demo-train");
    if (!QFileInfo(trainer).isExecutable())
        QSKIP("ckpt-demo-train not built");
    const QString config = QStringLiteral(CKPT_SOURCE_DIR "/resources/demo/spirals.ini");
    QTemporaryDir dir;
    const QString out = dir.path() + QStringLiteral("/RUN000");
    const auto train = [&](int epochs) {
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(trainer, {"--output_dir", out, "--config_file", config, "--epochs",
                          QString::number(epochs), "--samples_per_class", "30"});
        return p.waitForFinished(60000) && p.exitCode() == 0;
    };
    QVERIFY(train(2));
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({dir.path()});
    QTRY_VERIFY(workspace.isIdle() && workspace.epochTable()->rowCount() == 2);
    workspace.flushWatcher(); // the watcher has adopted the scanned runs

    // The trainer resumes from `last` and saves epoch 3 while the window is open.
    QSignalSpy added(&workspace, &Workspace::epochAdded);
    QVERIFY(train(3));
    QTRY_COMPARE_WITH_TIMEOUT(workspace.epochTable()->rowCount(), 3, 1000);
    // Every pending change handled: exactly one new epoch, no duplicate row.
    workspace.flushWatcher();
    QCoreApplication::sendPostedEvents();
    QCOMPARE(added.count(), 1);
    QCOMPARE(workspace.epochTable()->rowCount(), 3);
    const QString root = workspace.epochTable()->rootAt(2);
    QCOMPARE(workspace.epochTable()->epochAt(2), 3);
    // The last badge moved with the link, and the run is live.
    QTRY_VERIFY_WITH_TIMEOUT(workspace.epochTable()->index(2, 0).data(roles::IsLastRole).toBool(),
                             1000);
    QTRY_VERIFY_WITH_TIMEOUT(workspace.runTree()->indexOfRun(root).data(roles::LiveRole).toBool(),
                             1000);
    QTRY_VERIFY(workspace.isIdle());
}

void tst_MainWindow::plotHasOneGraphPerChosenMetric()
{
    QTemporaryDir dir;
    const std::filesystem::path runDir = std::filesystem::path(dir.path().toStdString()) / "r";
    makeRun(runDir / "ckpts", 6);
    std::string log = "epoch,accuracy,loss,val_loss\n";
    for (int e = 0; e < 6; ++e)
        log += std::to_string(e) + "," + std::to_string(0.5 + 0.05 * e) + "," +
               std::to_string(1.0 / (e + 1)) + "," + std::to_string(1.2 / (e + 1)) + "\n";
    CandleFixture::writeText(runDir / "training.log", log);
    Workspace workspace;
    MainWindow window(&workspace);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({dir.path()});
    QTRY_VERIFY(workspace.isIdle() && workspace.epochTable()->rowCount() == 6);
    MetricPlot* plot = window.plotPanel()->plot();
    QListWidget* list = window.plotPanel()->metricList();
    QTRY_VERIFY(list->count() >= 3);
    // loss and val_loss are chosen by default: one graph each, six points.
    QTRY_COMPARE(plot->graphCount(), 2);
    QCOMPARE(plot->pointCount(0), 6);
    QCOMPARE(plot->pointCount(1), 6);
    // Checking accuracy with the mouse adds its graph.
    QListWidgetItem* accuracy = list->findItems("accuracy", Qt::MatchExactly).value(0);
    QVERIFY(accuracy);
    const QRect r = list->visualItemRect(accuracy);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, QPoint(r.left() + 10, r.center().y()));
    QTRY_COMPARE(plot->graphCount(), 3);

    // Clicking a point selects that epoch in the table...
    plot->replotNow();
    const QPoint at = plot->pointPosition(0, 3);
    QVERIFY(at.x() >= 0);
    QWidget* target = plot->childAt(at);
    QVERIFY(target);
    QTest::mouseClick(target, Qt::LeftButton, {}, target->mapFrom(plot, at));
    QTRY_VERIFY(window.epochTable()->currentEpoch().has_value());
    QCOMPARE(window.epochTable()->currentEpoch()->epoch, 4);
    // ...and selecting a row marks the epoch on the plot.
    clickRow(window.epochTable(), 2, workspace.shownRuns().first());
    QTRY_COMPARE(plot->selectedEpoch(), 2);
}

// Saves a picture of `w` when CKPT_SHOT_DIR is set (for looking at the UI).
static void shoot(QWidget* w, const QString& name)
{
    if (qEnvironmentVariableIsSet("CKPT_SHOT_DIR"))
        w->grab().save(qEnvironmentVariable("CKPT_SHOT_DIR") + QLatin1Char('/') + name);
}

void tst_MainWindow::compareTwoEpochsOfTwoRuns()
{
    QTemporaryDir dir;
    const std::filesystem::path base = dir.path().toStdString();
    makeRun(base / "a/ckpts", 3);
    makeRun(base / "b/ckpts", 3);
    Workspace workspace;
    MainWindow window(&workspace);
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    window.openFolders({dir.path()});
    QTRY_VERIFY(workspace.isIdle() && workspace.runRoots().size() == 2);
    // Both runs in the table: click the folder.
    QTreeView* tree = window.sidebar()->view();
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {},
                      tree->visualRect(tree->model()->index(0, 0)).center());
    QTRY_COMPARE(workspace.epochTable()->rowCount(), 6);
    const QStringList roots = workspace.shownRuns();
    clickRow(window.epochTable(), 1, roots[0]);
    QTableView* view = window.epochTable()->view();
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        const QModelIndex i = view->model()->index(r, 1);
        if (i.data(roles::RunRootRole).toString() == roots[1] && i.data(roles::EpochRole) == 3)
            QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::ControlModifier,
                              view->visualRect(i).center());
    }
    QCOMPARE(window.epochTable()->selectedEpochs().size(), 2);
    QTest::keyClick(view, Qt::Key_D, Qt::ControlModifier);
    CompareView* compare = window.compareView();
    QTRY_VERIFY(compare->isVisible());
    QAbstractItemModel* model = compare->table()->model();
    QVERIFY(model->rowCount() > 5);
    int differences = 0;
    for (int r = 0; r < model->rowCount(); ++r)
        differences += model->index(r, 0).data(roles::DifferentRole).toBool() ? 1 : 0;
    QVERIFY(differences >= 3); // run, epoch directory, epoch, best_metric_last, ...
    // The weights comparison has its clearly labelled place.
    QCOMPARE(compare->tabs()->tabText(1), QString("Weights"));
    QVERIFY(compare->weightsView());
    QVERIFY(compare->weightsPage()->isAncestorOf(compare->weightsView()));
    // The weights are compared once the tab is opened (the fixture's model
    // files are not HDF5: the view says so rather than showing nothing).
    QSignalSpy weightsDone(compare->weightsView(), &WeightsDiffView::finished);
    QTabBar* tabBar = compare->tabs()->tabBar();
    QTest::mouseClick(tabBar, Qt::LeftButton, {}, tabBar->tabRect(1).center());
    QTRY_COMPARE(weightsDone.count(), 1);
    QVERIFY2(compare->weightsView()->summary()->text().contains(QStringLiteral("model.h5")),
             qPrintable(compare->weightsView()->summary()->text()));
    shoot(&window, "compare.png");
}

void tst_MainWindow::dropModelFileOpensInspector()
{
    QTemporaryDir dir;
    const QString model = dir.filePath(QStringLiteral("dropped.h5"));
    QFile f(model);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not really HDF5");
    f.close();
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(model)});
    const QPoint pos = window.rect().center();
    QDragEnterEvent enter(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    QDropEvent drop(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    auto* dialog = window.findChild<ModelInspectorDialog*>();
    QVERIFY(dialog);
    QCOMPARE(dialog->inspector()->path(), model);
    QTRY_VERIFY(dialog->inspector()->header()->text().contains(QStringLiteral("dropped.h5")));
    QVERIFY(workspace.runRoots().isEmpty()); // a model file is not a run folder
    dialog->close();
}

void tst_MainWindow::inspectModelFromEpochTable()
{
    QTemporaryDir dir;
    makeRun(dir.path().toStdString(), 2);
    Workspace workspace;
    MainWindow window(&workspace);
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.openFolders({dir.path()});
    QTRY_VERIFY(workspace.isIdle() && workspace.runRoots().size() == 1);
    QTRY_COMPARE(workspace.epochTable()->rowCount(), 2);
    clickRow(window.epochTable(), 2, workspace.runRoots().first());
    QAction* inspect = window.action(QStringLiteral("inspectModel"));
    QVERIFY(inspect);
    QTRY_VERIFY(inspect->isEnabled());
    QVERIFY(window.epochTable()->view()->actions().contains(inspect) ||
            window.epochTable()->actions().contains(inspect));
    inspect->trigger();
    auto* dialog = window.findChild<ModelInspectorDialog*>();
    QVERIFY(dialog);
    QVERIFY2(dialog->inspector()->path().endsWith(QStringLiteral("model.h5")),
             qPrintable(dialog->inspector()->path()));
    // The title names the run and the epoch, not just "model.h5".
    QVERIFY2(dialog->windowTitle().contains(workspace.runName(workspace.runRoots().first()) +
                                            QStringLiteral(" · epoch 2")),
             qPrintable(dialog->windowTitle()));
    dialog->close();
}

void tst_MainWindow::experimentsTabAndShowInBrowser()
{
    QTemporaryDir dir;
    const std::filesystem::path root = std::filesystem::path(dir.path().toStdString()) / "r/ckpts";
    makeRun(root, 3);
    Workspace workspace;
    MainWindow window(&workspace);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* panel = window.findChild<ExperimentsPanel*>();
    QVERIFY(panel);
    auto* tabs = qobject_cast<QTabWidget*>(panel->parentWidget()->parentWidget());
    QVERIFY(tabs);
    QCOMPARE(tabs->tabText(tabs->indexOf(panel)), QStringLiteral("E&xperiments"));
    QTest::keyClick(&window, Qt::Key_4, Qt::ControlModifier);
    QCOMPARE(tabs->currentWidget(), panel);

    // A run outside the open folders: its folder is opened, then the run selected.
    const QString r = QString::fromStdString(root.string());
    window.experiments()->showInBrowser(r);
    QTRY_COMPARE(window.sidebar()->selectedRuns(), QStringList{r});
    QTRY_VERIFY(workspace.isIdle());
    window.sidebar()->selectRuns({});
    window.experiments()->showInBrowser(r);
    QCOMPARE(window.sidebar()->selectedRuns(), QStringList{r});
}

QTEST_MAIN(tst_MainWindow)
#include "tst_MainWindow.moc"
