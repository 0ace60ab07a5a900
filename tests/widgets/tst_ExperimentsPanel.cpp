#include "DemoRuns.h"
#include "experiments/ExperimentsPanel.h"
#include "experiments/LineageView.h"
#include "launch/LineageGraph.h"
#include "models/LaunchedRunsModel.h"
#include "models/ModelRoles.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

// The Experiments panel on the offscreen platform, driven by real input, on
// runs of the demo trainer launched for real.
class tst_ExperimentsPanel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init();
    void runningTrainerStreamsAndStopsAfterConfirmation();
    void cancellingTheConfirmationKeepsTheRunGoing();
    void aRunJustLaunchedIsSelectedAndFollowed();
    void forkEdgeIsLabelledAndItsNodeSelectsTheRun();
    void columnWidthsAndFollowAreRemembered();
    void finishedRunIsForgottenAfterConfirmationFilesStay();
    void goneRunsAreForgottenAllAtOnce();

private:
    // Clicks the row of `root` in the panel's table.
    void clickRow(ExperimentsPanel& panel, const QString& root);
    QMessageBox* confirmation(ExperimentsPanel& panel);
    QString stateText(ExperimentsPanel& panel, const QString& root);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<test::DemoRuns> m_runs;
};

void tst_ExperimentsPanel::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    const fs::path base = m_dir->path().toStdString();
    m_runs = std::make_unique<test::DemoRuns>(base, CKPT_DEMO_TRAIN,
                                              LaunchRegistry(base / "launched-runs.json"));
}

void tst_ExperimentsPanel::clickRow(ExperimentsPanel& panel, const QString& root)
{
    QTableView* table = panel.table();
    for (int row = 0; row < table->model()->rowCount(); ++row) {
        const QModelIndex index = table->model()->index(row, LaunchedRunsModel::NameColumn);
        if (index.data(roles::RunRootRole).toString() == root) {
            QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
                              table->visualRect(index).center());
            return;
        }
    }
    QFAIL("the run is not in the table");
}

QMessageBox* tst_ExperimentsPanel::confirmation(ExperimentsPanel& panel)
{
    return panel.findChild<QMessageBox*>(QStringLiteral("stopConfirmation"));
}

QString tst_ExperimentsPanel::stateText(ExperimentsPanel& panel, const QString& root)
{
    const int row = panel.model()->rowOf(root);
    return row < 0 ? QString()
                   : panel.model()->index(row, LaunchedRunsModel::StateColumn).data().toString();
}

void tst_ExperimentsPanel::runningTrainerStreamsAndStopsAfterConfirmation()
{
    auto launched = m_runs->launch("RUN000", 200, 0.2);
    QVERIFY2(launched, launched ? "" : launched.error().message.c_str());
    const QString root = QString::fromStdString(*launched);
    LaunchedRunsModel model(m_runs->registry());
    model.setIntervals(150, 1000);
    ExperimentsPanel panel(&model);
    panel.setStopGrace(3s);
    panel.resize(1000, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));

    QTRY_COMPARE_WITH_TIMEOUT(stateText(panel, root), QStringLiteral("running"), 10000);
    clickRow(panel, root);
    QCOMPARE(panel.selectedRun(), root);
    // The console streams what the trainer writes, while it runs.
    QTRY_VERIFY_WITH_TIMEOUT(panel.console()->toPlainText().contains(QLatin1String("Epoch 3/200")),
                             20000);
    QVERIFY(panel.followBox()->isChecked());
    QScrollBar* bar = panel.console()->verticalScrollBar();
    QCOMPARE(bar->value(), bar->maximum());
    QVERIFY(panel.stopButton()->isEnabled());

    QSignalSpy finished(&model, &LaunchedRunsModel::stopFinished);
    QTest::mouseClick(panel.stopButton(), Qt::LeftButton);
    QTRY_VERIFY(confirmation(panel));
    QVERIFY(confirmation(panel)->isVisible());
    QVERIFY(confirmation(panel)->informativeText().contains(QLatin1String("SIGTERM")));
    QTest::mouseClick(confirmation(panel)->button(QMessageBox::Yes), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 15000);
    QCOMPARE(finished.at(0).at(1).toString(), QString());
    QTRY_COMPARE_WITH_TIMEOUT(stateText(panel, root), QStringLiteral("stopped"), 10000);
    QCOMPARE(panel.table()
                 ->model()
                 ->index(0, LaunchedRunsModel::StateColumn)
                 .data(roles::RunStateRole)
                 .toInt(),
             int(RunState::Stopped));
    QVERIFY(!panel.stopButton()->isEnabled());
    QVERIFY(!panel.console()->toPlainText().contains(QLatin1String("Epoch 200/200")));
}

void tst_ExperimentsPanel::cancellingTheConfirmationKeepsTheRunGoing()
{
    auto launched = m_runs->launch("RUN000", 200, 0.2);
    QVERIFY(launched);
    const QString root = QString::fromStdString(*launched);
    LaunchedRunsModel model(m_runs->registry());
    model.setIntervals(150, 1000);
    ExperimentsPanel panel(&model);
    panel.resize(1000, 600);
    panel.show();
    QTRY_COMPARE_WITH_TIMEOUT(stateText(panel, root), QStringLiteral("running"), 10000);
    clickRow(panel, root);
    // Del asks too; Esc cancels.
    QTest::keyClick(panel.table(), Qt::Key_Delete);
    QTRY_VERIFY(confirmation(panel));
    QTest::keyClick(confirmation(panel), Qt::Key_Escape);
    QTRY_VERIFY(!confirmation(panel));
    QVERIFY(!model.isStopping(root));
    const int refreshes = model.refreshCount();
    QTRY_VERIFY(model.refreshCount() >= refreshes + 2); // still running two refreshes later
    QCOMPARE(stateText(panel, root), QStringLiteral("running"));
    // Stopped for good through the model (the test's cleanup).
    QSignalSpy finished(&model, &LaunchedRunsModel::stopFinished);
    model.stop(root, 1s);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 15000);
}

void tst_ExperimentsPanel::aRunJustLaunchedIsSelectedAndFollowed()
{
    auto first = m_runs->launch("RUN000", 1, 0.0);
    QVERIFY(first);
    LaunchedRunsModel model(m_runs->registry());
    model.setIntervals(0, 0); // only the refreshes asked for
    ExperimentsPanel panel(&model);
    panel.show();
    QTRY_COMPARE(model.rowCount(), 1);
    QCOMPARE(panel.selectedRun(), QString::fromStdString(*first)); // the newest, to begin with
    // What the window does after LaunchDialog: the new run is not listed yet.
    auto launched = m_runs->launch("RUN001", 3, 0.3);
    QVERIFY(launched);
    const QString root = QString::fromStdString(*launched);
    panel.showRun(root);
    QTRY_COMPARE(panel.selectedRun(), root);
    QTRY_VERIFY_WITH_TIMEOUT(panel.console()->toPlainText().contains(QLatin1String("Epoch 1/3")),
                             20000);
    QVERIFY(!panel.console()->toPlainText().contains(QLatin1String("Epoch 1/1")));
    model.setIntervals(100, 0);
    QTRY_COMPARE_WITH_TIMEOUT(stateText(panel, root), QStringLiteral("completed"), 30000);
}

void tst_ExperimentsPanel::forkEdgeIsLabelledAndItsNodeSelectsTheRun()
{
    auto parent = m_runs->train("RUN000", 8);
    QVERIFY2(parent, parent ? "" : parent.error().message.c_str());
    auto fork = m_runs->fork(*parent, 6, "learning_rate=0.05");
    QVERIFY2(fork, fork ? "" : fork.error().message.c_str());
    LaunchedRunsModel model(m_runs->registry());
    ExperimentsPanel panel(&model);
    panel.resize(1200, 700);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTRY_VERIFY(
        panel.lineage()->linkLabels().contains(QStringLiteral("e6: learning_rate 0.01 -> 0.05")));
    QCOMPARE(panel.lineage()->graph().nodes.size(), std::size_t(2));

    // Clicking the fork's node selects its row (after another row was chosen).
    panel.table()->clearSelection();
    QVERIFY(panel.selectedRun().isEmpty());
    const QString forkRoot = QString::fromStdString(*fork);
    const QPoint at = panel.lineage()->nodePosition(forkRoot);
    QVERIFY(!at.isNull());
    QSignalSpy selected(&panel, &ExperimentsPanel::selectedRunChanged);
    QTest::mouseClick(panel.lineage()->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(panel.selectedRun(), forkRoot);
    QVERIFY(selected.count() >= 1);
    // The parent was not launched by us: it has no row, its node changes nothing.
    QTest::mouseClick(panel.lineage()->viewport(), Qt::LeftButton, {},
                      panel.lineage()->nodePosition(QString::fromStdString(parent->string())));
    QCOMPARE(panel.selectedRun(), forkRoot);
    QSignalSpy show(&panel, &ExperimentsPanel::showInBrowserRequested);
    QTest::mouseClick(panel.showButton(), Qt::LeftButton);
    QCOMPARE(show.count(), 1);
    QCOMPARE(show.at(0).at(0).toString(), forkRoot);
    QTRY_COMPARE_WITH_TIMEOUT(stateText(panel, forkRoot), QStringLiteral("completed"), 30000);
}

void tst_ExperimentsPanel::columnWidthsAndFollowAreRemembered()
{
    LaunchedRunsModel model(m_runs->registry());
    QByteArray state;
    {
        ExperimentsPanel panel(&model);
        panel.table()->horizontalHeader()->resizeSection(LaunchedRunsModel::ParentColumn, 333);
        QTest::mouseClick(panel.followBox(), Qt::LeftButton);
        QVERIFY(!panel.followBox()->isChecked());
        state = panel.saveState();
    }
    ExperimentsPanel again(&model);
    again.restoreState(state);
    QCOMPARE(again.table()->horizontalHeader()->sectionSize(LaunchedRunsModel::ParentColumn), 333);
    QVERIFY(!again.followBox()->isChecked());
    again.restoreState(QByteArray("garbage")); // ignored
    QCOMPARE(again.table()->horizontalHeader()->sectionSize(LaunchedRunsModel::ParentColumn), 333);
}

void tst_ExperimentsPanel::finishedRunIsForgottenAfterConfirmationFilesStay()
{
    auto done = m_runs->launch("RUN000", 1, 0.0);
    QVERIFY(done);
    auto running = m_runs->launch("RUN001", 200, 0.2);
    QVERIFY(running);
    const QString doneRoot = QString::fromStdString(*done);
    const QString runningRoot = QString::fromStdString(*running);
    LaunchedRunsModel model(m_runs->registry());
    model.setIntervals(150, 1000);
    ExperimentsPanel panel(&model);
    panel.resize(1000, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QTRY_COMPARE_WITH_TIMEOUT(stateText(panel, doneRoot), QStringLiteral("completed"), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(stateText(panel, runningRoot), QStringLiteral("running"), 10000);

    // A run still going cannot be forgotten: it is stopped first.
    clickRow(panel, runningRoot);
    QVERIFY(!panel.forgetButton()->isEnabled());
    QTest::keyClick(panel.table(), Qt::Key_Delete, Qt::ShiftModifier);
    QVERIFY(!panel.findChild<QMessageBox*>(QStringLiteral("forgetConfirmation")));

    clickRow(panel, doneRoot);
    QTRY_VERIFY(panel.forgetButton()->isEnabled());
    const auto forgetBox = [&] {
        return panel.findChild<QMessageBox*>(QStringLiteral("forgetConfirmation"));
    };
    // Esc keeps it listed.
    QTest::keyClick(panel.table(), Qt::Key_Delete, Qt::ShiftModifier);
    QTRY_VERIFY(forgetBox());
    QVERIFY(forgetBox()->informativeText().contains(QLatin1String("Nothing on disk changes")));
    QTest::keyClick(forgetBox(), Qt::Key_Escape);
    QTRY_VERIFY(!forgetBox());
    QVERIFY(model.rowOf(doneRoot) >= 0);

    QTest::mouseClick(panel.forgetButton(), Qt::LeftButton);
    QTRY_VERIFY(forgetBox());
    QTest::mouseClick(forgetBox()->button(QMessageBox::Yes), Qt::LeftButton);
    QTRY_COMPARE(model.rowOf(doneRoot), -1);
    QVERIFY(model.rowOf(runningRoot) >= 0);
    // Off the registry, not off the disk.
    auto listed = m_runs->registry().launched();
    QVERIFY(listed);
    QCOMPARE(int(listed->size()), 1);
    QCOMPARE(QString::fromStdString(listed->front().runRoot), runningRoot);
    QVERIFY(fs::is_directory(done->c_str()));
    QVERIFY(fs::exists(LaunchRecord::pathFor(*done)));

    QSignalSpy finished(&model, &LaunchedRunsModel::stopFinished);
    model.stop(runningRoot, 1s);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 15000);
}

void tst_ExperimentsPanel::goneRunsAreForgottenAllAtOnce()
{
    QStringList roots;
    for (const char* name : {"RUN000", "RUN001", "RUN002"}) {
        auto launched = m_runs->launch(name, 1, 0.0);
        QVERIFY2(launched, launched ? "" : launched.error().message.c_str());
        roots << QString::fromStdString(*launched);
    }
    LaunchedRunsModel model(m_runs->registry());
    model.setIntervals(150, 150);
    ExperimentsPanel panel(&model);
    panel.resize(1000, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    for (const QString& root : roots)
        QTRY_COMPARE_WITH_TIMEOUT(stateText(panel, root), QStringLiteral("completed"), 30000);
    // Two run folders deleted by hand: their rows say "gone".
    for (int i = 0; i < 2; ++i)
        fs::remove_all(roots[i].toStdString());
    for (int i = 0; i < 2; ++i)
        QTRY_COMPARE_WITH_TIMEOUT(stateText(panel, roots[i]), QStringLiteral("gone"), 10000);

    clickRow(panel, roots[0]);
    QTRY_VERIFY(panel.forgetButton()->isEnabled());
    QTest::keyClick(panel.table(), Qt::Key_Delete, Qt::ShiftModifier);
    QTRY_VERIFY(panel.findChild<QPushButton*>(QStringLiteral("forgetAllGone")));
    auto* all = panel.findChild<QPushButton*>(QStringLiteral("forgetAllGone"));
    QVERIFY2(all->text().contains(QLatin1String("2")), qPrintable(all->text()));
    QTest::mouseClick(all, Qt::LeftButton);
    QTRY_COMPARE(model.rowCount(), 1);
    QCOMPARE(model.rootAt(0), roots[2]);
    auto listed = m_runs->registry().launched();
    QVERIFY(listed);
    QCOMPARE(int(listed->size()), 1);

    // With one gone run left, the box offers no "all".
    fs::remove_all(roots[2].toStdString());
    QTRY_COMPARE_WITH_TIMEOUT(stateText(panel, roots[2]), QStringLiteral("gone"), 10000);
    clickRow(panel, roots[2]);
    QTest::mouseClick(panel.forgetButton(), Qt::LeftButton);
    QTRY_VERIFY(panel.findChild<QMessageBox*>(QStringLiteral("forgetConfirmation")));
    QVERIFY(!panel.findChild<QPushButton*>(QStringLiteral("forgetAllGone")));
    QTest::keyClick(panel.findChild<QMessageBox*>(QStringLiteral("forgetConfirmation")),
                    Qt::Key_Escape);
}

QTEST_MAIN(tst_ExperimentsPanel)
#include "tst_ExperimentsPanel.moc"
