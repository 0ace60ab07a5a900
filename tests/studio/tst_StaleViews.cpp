// Views that must not keep saying something about a state that has gone: the
// empty plot's hint once runs are loaded, the Compare tab after switching runs.
#include "CandleFixture.h"
#include "MainWindow.h"
#include "compare/CompareView.h"
#include "models/EpochTableModel.h"
#include "models/ModelRoles.h"
#include "plot/MetricPlot.h"
#include "plotpanel/PlotPanel.h"
#include "session/Workspace.h"
#include "sidebar/RunSidebar.h"
#include "table/EpochTableView.h"

#include <QApplication>
#include <QLabel>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace ckpt;
using test::CandleFixture;

class tst_StaleViews : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void emptyPlotSaysWhatIsMissing();
    void compareTabClearsWhenItsRunIsNoLongerShown();

private:
    // Two runs of 3 epochs under `dir`, opened and idle; returns their roots.
    static QStringList openTwoRuns(MainWindow& window, Workspace& workspace,
                                   const QTemporaryDir& dir);
    static void clickRun(MainWindow& window, const QString& root, Qt::KeyboardModifiers mods);
    static void clickEpoch(EpochTableView* table, const QString& root, int epoch,
                           Qt::KeyboardModifiers mods);
};

void tst_StaleViews::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QApplication::setOrganizationName(QStringLiteral("ckpt-studio-tests"));
    QApplication::setApplicationName(QStringLiteral("tst_StaleViews"));
}

void tst_StaleViews::init()
{
    QSettings().clear();
}

QStringList tst_StaleViews::openTwoRuns(MainWindow& window, Workspace& workspace,
                                        const QTemporaryDir& dir)
{
    const std::filesystem::path base = dir.path().toStdString();
    for (const char* r : {"a/ckpts", "b/ckpts"}) {
        CandleFixture f(base / r);
        for (int e = 1; e <= 3; ++e)
            f.addEpoch(e, 1.0 / e, 64, e == 1);
        f.linkAbsolute("last", 3);
    }
    window.resize(1400, 900);
    window.show();
    if (!QTest::qWaitForWindowActive(&window))
        return {};
    window.openFolders({dir.path()});
    if (!QTest::qWaitFor([&] { return workspace.isIdle() && workspace.runRoots().size() == 2; }))
        return {};
    QStringList roots = workspace.runRoots();
    roots.sort();
    window.sidebar()->view()->expandAll();
    return roots;
}

void tst_StaleViews::clickRun(MainWindow& window, const QString& root, Qt::KeyboardModifiers mods)
{
    QTreeView* tree = window.sidebar()->view();
    const QAbstractItemModel* model = tree->model();
    for (int f = 0; f < model->rowCount(); ++f)
        for (int r = 0; r < model->rowCount(model->index(f, 0)); ++r) {
            const QModelIndex i = model->index(r, 0, model->index(f, 0));
            if (i.data(roles::RunRootRole).toString() == root) {
                QTest::mouseClick(tree->viewport(), Qt::LeftButton, mods,
                                  tree->visualRect(i).center());
                return;
            }
        }
    QFAIL(qPrintable(QStringLiteral("no run %1 in the sidebar").arg(root)));
}

void tst_StaleViews::clickEpoch(EpochTableView* table, const QString& root, int epoch,
                                Qt::KeyboardModifiers mods)
{
    QTableView* view = table->view();
    for (int r = 0; r < view->model()->rowCount(); ++r) {
        const QModelIndex i = view->model()->index(r, 1);
        if (i.data(roles::EpochRole).toInt() == epoch &&
            i.data(roles::RunRootRole).toString() == root) {
            view->scrollTo(i);
            QTest::mouseClick(view->viewport(), Qt::LeftButton, mods, view->visualRect(i).center());
            return;
        }
    }
    QFAIL("epoch row not found");
}

void tst_StaleViews::emptyPlotSaysWhatIsMissing()
{
    QTemporaryDir dir;
    Workspace workspace;
    MainWindow window(&workspace);
    MetricPlot* plot = window.plotPanel()->plot();
    const QStringList roots = openTwoRuns(window, workspace, dir);
    QCOMPARE(roots.size(), 2);
    QTRY_COMPARE(window.sidebar()->selectedRuns().size(), 1);
    QTRY_VERIFY(!plot->showsEmptyState());

    // Ctrl+click the selected run: nothing selected, runs still loaded.
    clickRun(window, window.sidebar()->selectedRuns().first(), Qt::ControlModifier);
    QTRY_VERIFY(window.sidebar()->selectedRuns().isEmpty());
    QTRY_VERIFY(plot->showsEmptyState());
    QVERIFY2(!plot->emptyStateText().contains(QStringLiteral("drop a folder")),
             qPrintable(plot->emptyStateText()));
    QVERIFY2(plot->emptyStateText().contains(QStringLiteral("Pick a run")),
             qPrintable(plot->emptyStateText()));

    clickRun(window, roots[1], {});
    QTRY_VERIFY(!plot->showsEmptyState());
}

void tst_StaleViews::compareTabClearsWhenItsRunIsNoLongerShown()
{
    QTemporaryDir dir;
    Workspace workspace;
    MainWindow window(&workspace);
    const QStringList roots = openTwoRuns(window, workspace, dir);
    QCOMPARE(roots.size(), 2);
    clickRun(window, roots[0], {});
    QTRY_COMPARE(window.sidebar()->selectedRuns(), QStringList{roots[0]});
    QTRY_COMPARE(workspace.epochTable()->rowCount(), 3);
    clickEpoch(window.epochTable(), roots[0], 1, {});
    clickEpoch(window.epochTable(), roots[0], 3, Qt::ControlModifier);
    QCOMPARE(window.epochTable()->selectedEpochs().size(), 2);
    QTest::keyClick(window.epochTable()->view(), Qt::Key_D, Qt::ControlModifier);
    CompareView* compare = window.compareView();
    QTRY_VERIFY(compare->isVisible());
    QVERIFY(compare->table()->model()->rowCount() > 3);

    // Adding the other run keeps the comparison: its runs are still shown.
    clickRun(window, roots[1], Qt::ControlModifier);
    QTRY_COMPARE(window.sidebar()->selectedRuns().size(), 2);
    QVERIFY(compare->table()->model()->rowCount() > 3);

    // Switching to the other run alone: the old comparison goes, the tab says what to do.
    clickRun(window, roots[1], {});
    QTRY_COMPARE(window.sidebar()->selectedRuns(), QStringList{roots[1]});
    QCOMPARE(compare->table()->model()->rowCount(), 0);
    QStringList labels;
    for (const QLabel* l : compare->findChildren<QLabel*>())
        labels << l->text();
    QVERIFY2(labels.filter(QStringLiteral("Select two epochs")).size() >= 1,
             qPrintable(labels.join('\n')));
}

QTEST_MAIN(tst_StaleViews)
#include "tst_StaleViews.moc"
