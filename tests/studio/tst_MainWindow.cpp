#include "CandleFixture.h"
#include "MainWindow.h"
#include "models/EpochTableModel.h"
#include "models/RunTreeModel.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QApplication>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUrl>

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
    void selectingRunsFillsTheTable();

private:
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
}

QTEST_MAIN(tst_MainWindow)
#include "tst_MainWindow.moc"
