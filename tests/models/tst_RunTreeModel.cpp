#include "models/ModelRoles.h"
#include "models/RunTreeModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace ckpt;

class tst_RunTreeModel : public QObject
{
    Q_OBJECT
private slots:
    void runsGoUnderTheirFolderSorted();
    void upsertUpdatesInPlace();
    void badgesThroughRoles_data();
    void badgesThroughRoles();
    void removeRunAndFolder();
    void remoteFolderShowsHostAndConnection();
};

static RunSummary run(const QString& folder, const QString& rel, int epochs = 3)
{
    RunSummary s;
    s.folder = folder;
    s.root = folder + QLatin1Char('/') + rel;
    s.epochs = epochs;
    s.diskBytes = 1000u * static_cast<quint64>(epochs);
    return s;
}

void tst_RunTreeModel::runsGoUnderTheirFolderSorted()
{
    RunTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.upsertRun(run("/exp", "b/ckpts"));
    model.upsertRun(run("/exp", "a/ckpts"));
    model.upsertRun(run("/other", "ckpts"));
    QCOMPARE(model.rowCount(), 2);
    const QModelIndex exp = model.indexOfFolder("/exp");
    QCOMPARE(model.rowCount(exp), 2);
    // CANDLE's ckpts/ suffix is dropped: the run is the folder above it.
    QCOMPARE(model.index(0, 0, exp).data().toString(), QString("a"));
    QCOMPARE(model.index(1, 0, exp).data().toString(), QString("b"));
    QCOMPARE(RunTreeModel::displayName("/x/run", "/x/run/save/ckpts"), QString("run"));
    QCOMPARE(RunTreeModel::displayName("/x/run", "/x/run"), QString("run"));
    QCOMPARE(model.index(0, 0, exp).parent(), exp);
    QCOMPARE(model.runRoots(), QStringList({"/exp/a/ckpts", "/exp/b/ckpts", "/other/ckpts"}));
    QCOMPARE(model.indexOfRun("/exp/b/ckpts").data(roles::RunRootRole).toString(),
             QString("/exp/b/ckpts"));
    QCOMPARE(model.index(1, RunTreeModel::EpochsColumn).data(roles::SortRole).toInt(), 3);
}

void tst_RunTreeModel::upsertUpdatesInPlace()
{
    RunTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.upsertRun(run("/exp", "a"));
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    auto s = run("/exp", "a", 7);
    model.upsertRun(s);
    QCOMPARE(inserted.count(), 0);
    QVERIFY(changed.count() >= 1);
    QCOMPARE(model.indexOfRun("/exp/a", RunTreeModel::EpochsColumn).data().toInt(), 7);
}

void tst_RunTreeModel::badgesThroughRoles_data()
{
    QTest::addColumn<bool>("live");
    QTest::addColumn<int>("problems");
    QTest::addColumn<int>("checksum");
    QTest::newRow("quiet") << false << 0 << int(ChecksumState::Unknown);
    QTest::newRow("live with problems") << true << 3 << int(ChecksumState::Ok);
    QTest::newRow("mismatch") << false << 1 << int(ChecksumState::Mismatch);
}

void tst_RunTreeModel::badgesThroughRoles()
{
    QFETCH(bool, live);
    QFETCH(int, problems);
    QFETCH(int, checksum);
    RunTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto s = run("/exp", "a");
    s.live = live;
    s.problems = problems;
    s.checksum = static_cast<ChecksumState>(checksum);
    model.upsertRun(s);
    model.upsertRun(run("/exp", "b"));
    const QModelIndex i = model.indexOfRun("/exp/a");
    QCOMPARE(i.data(roles::LiveRole).toBool(), live);
    QCOMPARE(i.data(roles::ProblemCountRole).toInt(), problems);
    QCOMPARE(i.data(roles::ChecksumStateRole).toInt(), checksum);
    QCOMPARE(i.data(roles::DiskBytesRole).toULongLong(), 3000ull);
    // The folder sums its runs.
    const QModelIndex folder = model.indexOfFolder("/exp");
    QCOMPARE(folder.data(roles::ProblemCountRole).toInt(), problems);
    QCOMPARE(folder.data(roles::LiveRole).toBool(), live);
    QCOMPARE(folder.data(roles::DiskBytesRole).toULongLong(), 6000ull);
}

void tst_RunTreeModel::removeRunAndFolder()
{
    RunTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.upsertRun(run("/exp", "a"));
    model.upsertRun(run("/exp", "b"));
    model.removeRun("/exp/a");
    QCOMPARE(model.runRoots(), QStringList({"/exp/b"}));
    model.removeFolder("/exp");
    QCOMPARE(model.rowCount(), 0);
    QVERIFY(!model.indexOfRun("/exp/b").isValid());
}

void tst_RunTreeModel::remoteFolderShowsHostAndConnection()
{
    RunTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const QString folder = QStringLiteral("ssh://me@gpu:2222/data/exp");
    auto s = run(folder, "RUN001/ckpts");
    s.host = QStringLiteral("me@gpu:2222");
    model.upsertRun(s);
    // ssh:// roots are named by their text, like local paths.
    QCOMPARE(model.indexOfRun(s.root).data().toString(), QStringLiteral("RUN001"));
    QCOMPARE(model.indexOfRun(s.root).data(roles::RemoteHostRole).toString(), s.host);
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    model.setFolderRemote(folder, s.host, QStringLiteral("reconnecting"),
                          QStringLiteral("The connection to me@gpu:2222 dropped."));
    QCOMPARE(changed.count(), 1);
    const QModelIndex f = model.indexOfFolder(folder);
    QCOMPARE(f.data().toString(), QStringLiteral("gpu:exp"));
    QCOMPARE(f.data(roles::StaleRole).toString(), QStringLiteral("reconnecting"));
    QVERIFY(f.data(Qt::ToolTipRole).toString().contains(QStringLiteral("dropped")));
    s.stale = QStringLiteral("reconnecting");
    s.staleWhy = QStringLiteral("The connection to me@gpu:2222 dropped.");
    model.upsertRun(s);
    QVERIFY(model.indexOfRun(s.root)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("not current (reconnecting)")));
    model.setFolderRemote(folder, s.host, {}, QStringLiteral("connected to me@gpu:2222"));
    QCOMPARE(f.data(roles::StaleRole).toString(), QString());
    // A local folder says nothing of hosts.
    model.upsertRun(run("/exp", "a"));
    QCOMPARE(model.indexOfFolder("/exp").data(roles::RemoteHostRole).toString(), QString());
    QCOMPARE(model.indexOfFolder("/exp").data().toString(), QStringLiteral("exp"));
}

QTEST_GUILESS_MAIN(tst_RunTreeModel)
#include "tst_RunTreeModel.moc"
