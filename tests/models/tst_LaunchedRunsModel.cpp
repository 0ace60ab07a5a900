#include "DemoRuns.h"
#include "launch/LineageGraph.h"
#include "models/LaunchedRunsModel.h"
#include "models/ModelRoles.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;
namespace fs = std::filesystem;

// The Experiments panel's model on real records: the demo trainer launched
// and forked for real, the model refreshing off the GUI thread.
class tst_LaunchedRunsModel : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init();
    void followsALaunchedRunToCompletion();
    void forkShowsItsParentAndLineageEdge();
    void overlappingRefreshesCoalesce();
    void deletedRunShowsAsGone();
    void sameNamedRunsInTwoPlacesAreToldApart();
    void graphLayout_data();
    void graphLayout();

private:
    QString text(const LaunchedRunsModel& model, int row, int column) const
    {
        return model.index(row, column).data().toString();
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<test::DemoRuns> m_runs;
};

void tst_LaunchedRunsModel::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    const fs::path base = m_dir->path().toStdString();
    m_runs = std::make_unique<test::DemoRuns>(base, CKPT_DEMO_TRAIN,
                                              LaunchRegistry(base / "launched-runs.json"));
}

void tst_LaunchedRunsModel::followsALaunchedRunToCompletion()
{
    LaunchedRunsModel model(m_runs->registry());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setIntervals(100, 100);
    QTRY_COMPARE(model.refreshCount(), 1);
    QCOMPARE(model.rowCount(), 0);

    auto root = m_runs->launch("RUN000", 4, 0.4);
    QVERIFY2(root, root ? "" : root.error().message.c_str());
    const QString r = QString::fromStdString(*root);
    QTRY_COMPARE(model.rowCount(), 1);
    QCOMPARE(model.rootAt(0), r);
    QCOMPARE(model.index(0, 0).data(roles::RunRootRole).toString(), r);
    QCOMPARE(text(model, 0, LaunchedRunsModel::NameColumn), QStringLiteral("RUN000"));
    QCOMPARE(text(model, 0, LaunchedRunsModel::BackendColumn), QStringLiteral("local"));
    QCOMPARE(text(model, 0, LaunchedRunsModel::ParentColumn), QStringLiteral("—"));
    QTRY_COMPARE_WITH_TIMEOUT(text(model, 0, LaunchedRunsModel::StateColumn),
                              QStringLiteral("running"), 10000);
    QVERIFY(model.anyActive());
    QVERIFY(text(model, 0, LaunchedRunsModel::ProcessColumn).startsWith(QLatin1String("pid ")));
    QVERIFY(model.logPathAt(0).endsWith(QLatin1String("attempt-1.log")));
    QVERIFY(text(model, 0, LaunchedRunsModel::StartedColumn) != QStringLiteral("—"));
    QTRY_COMPARE_WITH_TIMEOUT(text(model, 0, LaunchedRunsModel::StateColumn),
                              QStringLiteral("completed"), 30000);
    QCOMPARE(model.index(0, 0).data(roles::RunStateRole).toInt(), int(RunState::Completed));
    QVERIFY(!model.anyActive());
    QVERIFY(text(model, 0, LaunchedRunsModel::DurationColumn) != QStringLiteral("—"));
    // The trainer slept 3 x 0.4 s: the duration counts whole seconds of it.
    QVERIFY(model.index(0, LaunchedRunsModel::DurationColumn).data(roles::SortRole).toLongLong() >=
            1);
}

void tst_LaunchedRunsModel::forkShowsItsParentAndLineageEdge()
{
    auto parent = m_runs->train("RUN000", 8);
    QVERIFY2(parent, parent ? "" : parent.error().message.c_str());
    auto fork = m_runs->fork(*parent, 6, "learning_rate=0.05");
    QVERIFY2(fork, fork ? "" : fork.error().message.c_str());

    LaunchedRunsModel model(m_runs->registry());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy lineage(&model, &LaunchedRunsModel::lineageChanged);
    QTRY_COMPARE(model.rowCount(), 1);
    QCOMPARE(model.rootAt(0), QString::fromStdString(*fork));
    QCOMPARE(text(model, 0, LaunchedRunsModel::ParentColumn), QStringLiteral("RUN000 @ e6 (fork)"));
    QVERIFY(lineage.count() >= 1);
    QCOMPARE(model.edges().size(), std::size_t(1));
    const LineageEdge& e = model.edges().front();
    QCOMPARE(e.parentRoot, parent->string());
    QCOMPARE(e.childRoot, *fork);
    QCOMPARE(e.epoch, 6);

    const LineageGraph g = LineageGraph::build(
        model.edges(), {{*fork, model.nameOf(model.rootAt(0)).toStdString(), model.stateAt(0)}});
    QCOMPARE(g.nodes.size(), std::size_t(2)); // the parent is named by the edge only
    QCOMPARE(g.links.size(), std::size_t(1));
    QCOMPARE(g.links[0].label, std::string("e6: learning_rate 0.01 -> 0.05"));
    const auto& parentNode = g.nodes[std::size_t(g.links[0].from)];
    QCOMPARE(parentNode.root, parent->string());
    QCOMPARE(parentNode.name, std::string("RUN000"));
    QVERIFY(!parentNode.state); // not launched by us
    QTRY_COMPARE_WITH_TIMEOUT(text(model, 0, LaunchedRunsModel::StateColumn),
                              QStringLiteral("completed"), 30000);
}

void tst_LaunchedRunsModel::overlappingRefreshesCoalesce()
{
    auto root = m_runs->launch("RUN000", 1, 0.0);
    QVERIFY(root);
    LaunchedRunsModel model(m_runs->registry()); // starts a refresh
    model.setIntervals(0, 0);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy refreshed(&model, &LaunchedRunsModel::refreshed);
    // Asked twice while the first runs: the first finishes (never cut short:
    // a slow far folder would otherwise never show), then one more runs for
    // both requests, not two.
    model.refresh();
    model.refresh();
    QTRY_VERIFY(!model.isRefreshing());
    QTRY_COMPARE(refreshed.count(), 2);
    QTest::qWait(200); // nothing further is due: no third refresh may follow
    QCOMPARE(refreshed.count(), 2);
    model.refresh();
    QTRY_COMPARE(refreshed.count(), 3);
    QCOMPARE(model.refreshCount(), 3);
    QCOMPARE(model.rowCount(), 1);
}

void tst_LaunchedRunsModel::deletedRunShowsAsGone()
{
    auto root = m_runs->launch("RUN000", 2, 0);
    QVERIFY2(root, root ? "" : root.error().message.c_str());
    LaunchedRunsModel model(m_runs->registry());
    model.setIntervals(100, 100);
    QTRY_COMPARE_WITH_TIMEOUT(text(model, 0, LaunchedRunsModel::StateColumn),
                              QStringLiteral("completed"), 30000);
    // The user deletes the run's folder: not an alarm ("lost"), just gone.
    fs::remove_all(fs::path(*root).parent_path());
    QTRY_COMPARE(text(model, 0, LaunchedRunsModel::StateColumn), QStringLiteral("gone"));
    QVERIFY(!model.index(0, 0).data(roles::RunStateRole).isValid());
    QVERIFY(!model.anyActive());
}

void tst_LaunchedRunsModel::sameNamedRunsInTwoPlacesAreToldApart()
{
    // One experiment copied to two projects and launched in both: the list
    // (and the lineage graph, which takes nameOf) must not show "RUN000" twice.
    const fs::path base = m_dir->path().toStdString();
    test::DemoRuns projA(base / "projA" / "EXP000", CKPT_DEMO_TRAIN, m_runs->registry());
    test::DemoRuns projB(base / "projB" / "EXP000", CKPT_DEMO_TRAIN, m_runs->registry());
    auto a = projA.launch("RUN000", 1, 0.0);
    QVERIFY2(a, a ? "" : a.error().message.c_str());
    auto b = projB.launch("RUN000", 1, 0.0);
    QVERIFY2(b, b ? "" : b.error().message.c_str());

    LaunchedRunsModel model(m_runs->registry());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QTRY_COMPARE(model.rowCount(), 2);
    const int rowA = model.rowOf(QString::fromStdString(*a));
    const int rowB = model.rowOf(QString::fromStdString(*b));
    QCOMPARE(text(model, rowA, LaunchedRunsModel::NameColumn), QStringLiteral("RUN000 (projA)"));
    QCOMPARE(text(model, rowB, LaunchedRunsModel::NameColumn), QStringLiteral("RUN000 (projB)"));
    QCOMPARE(model.nameOf(QString::fromStdString(*b)), QStringLiteral("RUN000 (projB)"));
    QTRY_COMPARE_WITH_TIMEOUT(text(model, rowB, LaunchedRunsModel::StateColumn),
                              QStringLiteral("completed"), 30000);
}

void tst_LaunchedRunsModel::graphLayout_data()
{
    // Edges as "parent>child@epoch:mode"; expected "root/gen=column,row[~superseded epoch]".
    QTest::addColumn<QStringList>("edges");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("restart then fork") << QStringList{"A>A@6:restart", "A>B@6:fork"}
                                       << QStringList{"A/0=0,0~6", "A/1=1,0", "B/0=2,1"};
    QTest::newRow("fork before restart comes from the first generation")
        << QStringList{"A>B@3:fork", "A>A@6:restart"}
        << QStringList{"A/0=0,0~6", "A/1=1,0", "B/0=1,1"};
    QTest::newRow("sweep of three forks")
        << QStringList{"A>B@4:fork", "A>C@4:fork", "A>D@4:fork"}
        << QStringList{"A/0=0,0", "B/0=1,1", "C/0=1,2", "D/0=1,3"};
    QTest::newRow("fork of a fork") << QStringList{"A>B@2:fork", "B>C@5:fork", "A>D@3:fork"}
                                    << QStringList{"A/0=0,0", "B/0=1,1", "C/0=2,2", "D/0=1,3"};
}

void tst_LaunchedRunsModel::graphLayout()
{
    QFETCH(QStringList, edges);
    QFETCH(QStringList, expected);
    std::vector<LineageEdge> list;
    int t = 0;
    for (const QString& spec : edges) {
        const QStringList parts = spec.split(QRegularExpression(QStringLiteral("[>@:]")));
        LineageEdge e;
        e.parentRoot = parts[0].toStdString();
        e.childRoot = parts[1].toStdString();
        e.epoch = parts[2].toInt();
        e.mode =
            parts[3] == QLatin1String("fork") ? LaunchPlan::Mode::Fork : LaunchPlan::Mode::Restart;
        e.submitted = "2026-11-24T10:00:0" + std::to_string(t++) + "Z";
        list.push_back(e);
    }
    const LineageGraph g = LineageGraph::build(list, {});
    QStringList got;
    for (const auto& n : g.nodes) {
        QString s = QStringLiteral("%1/%2=%3,%4")
                        .arg(QString::fromStdString(n.root))
                        .arg(n.generation)
                        .arg(n.column)
                        .arg(n.row);
        if (n.supersededAfter)
            s += QStringLiteral("~%1").arg(*n.supersededAfter);
        got << s;
    }
    got.sort();
    QCOMPARE(got, expected);
    QCOMPARE(g.links.size(), std::size_t(edges.size()));
}

QTEST_GUILESS_MAIN(tst_LaunchedRunsModel)
#include "tst_LaunchedRunsModel.moc"
