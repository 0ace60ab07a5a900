#include "models/EpochTableModel.h"
#include "models/ModelRoles.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

#include <cmath>
#include <memory>
#include <optional>

using namespace ckpt;

class tst_EpochTableModel : public QObject
{
    Q_OBJECT
private slots:
    void rowsAndFixedColumns();
    void historyAddsMetricColumns();
    void restartedEpochsShowTheNewestSegment();
    void liveEpochInsertsOneRow();
    void linksMoveBadges();
    void checksumStates_data();
    void checksumStates();
    void sortsNumericallyThroughProxy();
    void twoRunsStackBlocks();
};

static Epoch epoch(const std::string& root, int n, double best, bool checksumOff = false)
{
    Epoch e;
    e.number = n;
    e.dir = root + "/epochs/" + std::to_string(n);
    EpochFile model;
    model.name = "model.h5";
    model.bytes = 1024u * static_cast<unsigned>(n);
    model.present = true;
    model.model = true;
    model.algo = checksumOff ? ChecksumAlgo::Disabled : ChecksumAlgo::Crc32;
    model.checksum = checksumOff ? "__DISABLED__" : "123";
    e.files.push_back(model);
    e.recorded = true;
    e.monitored = "val_loss";
    e.setMetric(kBestSoFar, best);
    e.savedAt = "2026-11-22 13:00:0" + std::to_string(n % 10);
    e.elapsed = 2.0 * n;
    return e;
}

static Run makeRun(const std::string& root, int epochs)
{
    Run run;
    run.root = root;
    run.layout = "candle";
    for (int n = 1; n <= epochs; ++n)
        run.epochs.push_back(epoch(root, n, 1.0 / n));
    run.setLink("last", RunLink{"last", root + "/last",
                                root + "/epochs/00" + std::to_string(epochs), epochs});
    run.setLink("best", RunLink{"best", root + "/best", "", 1});
    return run;
}

static MetricHistory history(int epochs, const std::vector<std::string>& metrics)
{
    MetricHistory h;
    for (int n = 1; n <= epochs; ++n) {
        HistoryRow row;
        row.epoch = n;
        for (size_t m = 0; m < metrics.size(); ++m)
            row.samples.push_back(MetricSample{metrics[m], 10.0 * static_cast<double>(m) + n,
                                               MetricSource::TrainingLog});
        row.samples.push_back(MetricSample{"best_so_far", 1.0, MetricSource::CkptInfo});
        h.rows.push_back(row);
    }
    return h;
}

static int column(const EpochTableModel& m, EpochTableModel::ColumnKind kind)
{
    return m.columnOf(kind);
}

void tst_EpochTableModel::rowsAndFixedColumns()
{
    EpochTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Run run = makeRun("/r", 3);
    model.setRuns({&run}, {"r"});
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), 10); // 9 leading + 1 trailing, no metrics yet
    using K = EpochTableModel::ColumnKind;
    QCOMPARE(model.index(1, column(model, K::Epoch)).data().toInt(), 2);
    QCOMPARE(model.index(1, column(model, K::BestSoFar)).data().toString(), QString("0.5"));
    QCOMPARE(model.index(1, column(model, K::TimePerEpoch)).data().toString(), QString("4.0 s"));
    QCOMPARE(model.index(2, column(model, K::Links)).data().toString(), QString("last"));
    QCOMPARE(model.index(0, column(model, K::Links)).data().toString(), QString("best"));
    QCOMPARE(model.index(0, 0).data(roles::IsBestRole).toBool(), true);
    QCOMPARE(model.index(1, column(model, K::Size)).data(roles::SortRole).toULongLong(), 2048ull);
    QCOMPARE(model.headerData(column(model, K::Monitored), Qt::Horizontal).toString(),
             QString("Monitored (val_loss)"));
    QCOMPARE(model.rowOf("/r", 3), 2);
    QCOMPARE(model.epochAt(2), 3);
    QCOMPARE(model.rootAt(2), QString("/r"));
}

void tst_EpochTableModel::historyAddsMetricColumns()
{
    EpochTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Run run = makeRun("/r", 3);
    model.setRuns({&run}, {"r"});
    QSignalSpy inserted(&model, &QAbstractItemModel::columnsInserted);
    model.setHistory("/r", history(3, {"val_loss", "loss", "accuracy"}));
    QCOMPARE(inserted.count(), 3);
    // best_so_far has its own column: not repeated as a metric.
    QCOMPARE(model.metricNames(), QStringList({"accuracy", "loss", "val_loss"}));
    const int lossCol = 9 + 1;
    QCOMPARE(model.metricAt(lossCol), QString("loss"));
    QCOMPARE(model.index(2, lossCol).data().toString(), QString("13"));
    QCOMPARE(
        model.index(2, model.columnOf(EpochTableModel::ColumnKind::Monitored)).data().toString(),
        QString("3"));
    // A second history with a known metric set adds nothing.
    model.setHistory("/r", history(3, {"loss"}));
    QCOMPARE(inserted.count(), 3);
    QVERIFY(!model.index(2, 9).data().isValid());
}

void tst_EpochTableModel::restartedEpochsShowTheNewestSegment()
{
    // Segment 0 trained 1..3, a restart from 1 trained 2..3 again and logged a
    // new metric; epoch 3's line was written twice by the restarted trainer.
    auto h = std::make_shared<MetricHistory>();
    const auto add = [&](int segment, int epoch, double loss, std::optional<double> lr) {
        HistoryRow row;
        row.segment = segment;
        row.epoch = epoch;
        row.samples.push_back(MetricSample{"loss", loss, MetricSource::TrainingLog});
        if (lr)
            row.samples.push_back(MetricSample{"lr", *lr, MetricSource::TrainingLog});
        h->rows.push_back(row);
    };
    add(0, 1, 1.0, {});
    add(0, 2, 2.0, {});
    add(0, 3, 3.0, {});
    add(1, 2, 20.0, 0.5);
    add(1, 3, 30.0, 0.5);
    add(1, 3, 31.0, 0.25);
    EpochTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Run run = makeRun("/r", 3);
    model.setRuns({&run}, {"r"});
    model.setHistory("/r", std::shared_ptr<const MetricHistory>(h));
    QCOMPARE(model.metricNames(), QStringList({"loss", "lr"}));
    const int lossCol = model.columnOf(EpochTableModel::ColumnKind::Metric);
    QCOMPARE(model.index(0, lossCol).data().toString(), QString("1"));
    QCOMPARE(model.index(1, lossCol).data().toString(), QString("20"));
    QCOMPARE(model.index(2, lossCol).data().toString(), QString("31"));
    QVERIFY(!model.index(0, lossCol + 1).data().isValid());
    QCOMPARE(model.index(2, lossCol + 1).data().toString(), QString("0.25"));
    // Sorting reads the same values.
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(roles::SortRole);
    proxy.sort(lossCol, Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, model.columnOf(EpochTableModel::ColumnKind::Epoch)).data().toInt(), 3);
    QCOMPARE(proxy.index(2, model.columnOf(EpochTableModel::ColumnKind::Epoch)).data().toInt(), 1);
}

void tst_EpochTableModel::liveEpochInsertsOneRow()
{
    EpochTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Run run = makeRun("/r", 3);
    model.setRuns({&run}, {"r"});
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
    run.epochs.push_back(epoch("/r", 4, 0.2));
    run.links[0].epoch = 4;
    model.upsertEpoch("/r", run, run.epochs.back());
    QCOMPARE(inserted.count(), 1);
    QCOMPARE(reset.count(), 0);
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.index(3, 0).data(roles::IsLastRole).toBool(), true);
    QCOMPARE(model.index(2, 0).data(roles::IsLastRole).toBool(), false);
    model.removeEpoch("/r", 1);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.epochAt(0), 2);
    // An unknown run is ignored.
    model.upsertEpoch("/elsewhere", run, run.epochs.back());
    QCOMPARE(model.rowCount(), 3);
}

void tst_EpochTableModel::linksMoveBadges()
{
    EpochTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Run run = makeRun("/r", 3);
    model.setRuns({&run}, {"r"});
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    run.links[0].epoch = 2;
    model.updateLinks("/r", run);
    QVERIFY(changed.count() >= 2);
    QCOMPARE(model.index(1, 0).data(roles::IsLastRole).toBool(), true);
    QCOMPARE(model.index(2, 0).data(roles::IsLastRole).toBool(), false);
}

void tst_EpochTableModel::checksumStates_data()
{
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("label");
    QTest::newRow("ok") << int(ChecksumState::Ok) << "ok";
    QTest::newRow("mismatch") << int(ChecksumState::Mismatch) << "MISMATCH";
    QTest::newRow("missing") << int(ChecksumState::Missing) << "missing";
    QTest::newRow("bad info") << int(ChecksumState::BadInfo) << "bad info";
}

void tst_EpochTableModel::checksumStates()
{
    QFETCH(int, state);
    QFETCH(QString, label);
    EpochTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const Run run = makeRun("/r", 3);
    model.setRuns({&run}, {"r"});
    const int col = model.columnOf(EpochTableModel::ColumnKind::Checksum);
    QCOMPARE(model.index(1, col).data().toString(), QString("not verified"));
    model.setChecksumStates("/r", {{2, static_cast<ChecksumState>(state)}});
    QCOMPARE(model.index(1, col).data().toString(), label);
    QCOMPARE(model.index(1, 0).data(roles::ChecksumStateRole).toInt(), state);
    QCOMPARE(model.index(0, col).data().toString(), QString("not verified"));
}

void tst_EpochTableModel::sortsNumericallyThroughProxy()
{
    EpochTableModel model;
    Run run;
    run.root = "/r";
    for (int n : {9, 10, 100})
        run.epochs.push_back(epoch("/r", n, 1.0));
    model.setRuns({&run}, {"r"});
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(roles::SortRole);
    QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(model.columnOf(EpochTableModel::ColumnKind::Epoch), Qt::DescendingOrder);
    QCOMPARE(proxy.index(0, 1).data().toInt(), 100);
    QCOMPARE(proxy.index(2, 1).data().toInt(), 9);
    proxy.setFilterKeyColumn(-1);
    proxy.setFilterFixedString("100");
    QCOMPARE(proxy.rowCount(), 1);
}

void tst_EpochTableModel::twoRunsStackBlocks()
{
    EpochTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    Run a = makeRun("/a", 2);
    const Run b = makeRun("/b", 3);
    model.setRuns({&a, &b}, {"a", "b"});
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.rowOf("/b", 1), 2);
    QCOMPARE(model.index(2, 0).data().toString(), QString("b"));
    a.epochs.push_back(epoch("/a", 3, 0.1));
    model.upsertEpoch("/a", a, a.epochs.back());
    QCOMPARE(model.rowOf("/a", 3), 2);
    QCOMPARE(model.rowOf("/b", 1), 3);
    model.setHistory("/b", history(3, {"loss"}));
    QCOMPARE(model.index(model.rowOf("/b", 2), 9).data().toString(), QString("2"));
    QVERIFY(!model.index(model.rowOf("/a", 2), 9).data().isValid());
}

QTEST_GUILESS_MAIN(tst_EpochTableModel)
#include "tst_EpochTableModel.moc"
