#include "SyntheticHistory.h"
#include "plot/PlotModel.h"

#include <QTest>

using namespace ckpt;

namespace {
PlotModel::Run runOf(const QString& id, MetricHistory history)
{
    PlotModel::Run run;
    run.id = id;
    run.name = id;
    run.history = std::make_shared<MetricHistory>(std::move(history));
    return run;
}

QStringList loss()
{
    return {QStringLiteral("loss")};
}
} // namespace

class tst_PlotModel : public QObject
{
    Q_OBJECT

private slots:
    void curvesPerRunMetricAndSegment_data();
    void curvesPerRunMetricAndSegment();
    void appendGrowsInPlace();
    void appendWithGapAddsTwoEntries();
    void appendOfUnknownSegmentRebuilds();
    void updateRunAppendsWhenItExtends();
    void updateRunRebuildsWhenHistoryChanged();
    void sharedHistoriesAreKeptNotCopied();
    void aCancelledBuildStopsAtTheNextCurve();
    void markersPreferTheNewestSegment();
    void keyOfEpochFollowsTheAxis();
};

void tst_PlotModel::curvesPerRunMetricAndSegment_data()
{
    QTest::addColumn<QStringList>("metrics");
    QTest::addColumn<int>("runs");
    QTest::addColumn<int>("curves");
    QTest::addColumn<QList<int>>("points");

    const QList<int> twoSegments{12, 13}; // 1..12, anchor 8 + 9..20
    QTest::newRow("one metric") << loss() << 1 << 2 << twoSegments;
    QTest::newRow("two metrics") << QStringList{QStringLiteral("loss"), QStringLiteral("val_loss")}
                                 << 1 << 4 << twoSegments + twoSegments;
    QTest::newRow("metric nobody has")
        << QStringList{QStringLiteral("accuracy")} << 2 << 0 << QList<int>{};
    QTest::newRow("two runs") << loss() << 2 << 4 << twoSegments + twoSegments;
    QTest::newRow("no metric") << QStringList{} << 2 << 0 << QList<int>{};
}

void tst_PlotModel::curvesPerRunMetricAndSegment()
{
    QFETCH(QStringList, metrics);
    QFETCH(int, runs);
    QFETCH(int, curves);
    QFETCH(QList<int>, points);
    PlotModel model;
    std::vector<PlotModel::Run> list;
    for (int r = 0; r < runs; ++r)
        list.push_back(runOf(QString::number(r), test::twoSegmentHistory(12, 8, 20)));
    model.setRuns(std::move(list));
    model.setMetrics(metrics);
    QCOMPARE(int(model.curves().size()), curves);
    QList<int> counts;
    for (const auto& c : model.curves())
        counts << c.series.pointCount();
    QCOMPARE(counts, points);
    QCOMPARE(model.hasPoints(), curves > 0);
}

void tst_PlotModel::appendGrowsInPlace()
{
    PlotModel model;
    model.setRuns({runOf(QStringLiteral("a"), test::longHistory(50, {"loss", "acc"}))});
    model.setMetrics({QStringLiteral("loss"), QStringLiteral("acc")});
    const auto change = model.appendRow(
        QStringLiteral("a"), test::makeRow(0, 51, {{"loss", 0.5}, {"acc", 0.9}}, 1'700'002'000.0));
    QVERIFY(!change.rebuilt);
    QCOMPARE(int(change.grown.size()), 2);
    QCOMPARE(change.grown[0].from, 50);
    QCOMPARE(model.curves()[0].series.pointCount(), 51);
    QCOMPARE(model.curves()[0].series.raw().back(), 0.5);
    QCOMPARE(model.curves()[1].series.raw().back(), 0.9);
    // The data range follows without a scan of the whole series.
    model.appendRow(QStringLiteral("a"), test::makeRow(0, 52, {{"loss", 7.5}}, 1'700'002'030.0));
    QCOMPARE(model.valueRange().upper, 7.5);
    QCOMPARE(model.keyRange().upper, 52.0);
}

void tst_PlotModel::appendWithGapAddsTwoEntries()
{
    PlotModel model;
    model.setRuns({runOf(QStringLiteral("a"), test::longHistory(10, {"loss"}))});
    model.setMetrics(loss());
    const auto change = model.appendRow(QStringLiteral("a"),
                                        test::makeRow(0, 14, {{"loss", 0.5}}, 1'700'001'000.0));
    QVERIFY(!change.rebuilt);
    const auto& s = model.curves()[0].series;
    QCOMPARE(s.size(), 12);
    QCOMPARE(s.curvePoint(10), int(PlotSeries::Gap));
    QCOMPARE(s.pointCount(), 11);
}

void tst_PlotModel::appendOfUnknownSegmentRebuilds()
{
    PlotModel model;
    model.setRuns({runOf(QStringLiteral("a"), test::longHistory(10, {"loss"}))});
    model.setMetrics(loss());
    const auto change = model.appendRow(QStringLiteral("a"), test::makeRow(1, 1, {{"loss", 3.0}}));
    QVERIFY(change.rebuilt);
    QCOMPARE(int(model.curves().size()), 2);
    QVERIFY(!model.curves()[1].curve.anchored());
    // A row of a run not shown changes nothing.
    const auto none = model.appendRow(QStringLiteral("zzz"), test::makeRow(0, 1, {{"loss", 3.0}}));
    QVERIFY(!none.rebuilt);
    QVERIFY(none.grown.empty());
}

void tst_PlotModel::updateRunAppendsWhenItExtends()
{
    PlotModel model;
    model.setRuns({runOf(QStringLiteral("a"), test::twoSegmentHistory(12, 8, 15))});
    model.setMetrics(loss());
    const auto change = model.updateRun(QStringLiteral("a"), QStringLiteral("a"),
                                        test::twoSegmentHistory(12, 8, 20));
    QVERIFY(!change.rebuilt);
    QCOMPARE(int(change.grown.size()), 1);
    QCOMPARE(change.grown[0].curve, 1);
    QCOMPARE(model.curves()[1].series.pointCount(), 13);
    // New runs are added.
    QVERIFY(model.updateRun(QStringLiteral("b"), QStringLiteral("b"), test::twoSegmentHistory())
                .rebuilt);
    QCOMPARE(int(model.runs().size()), 2);
}

void tst_PlotModel::updateRunRebuildsWhenHistoryChanged()
{
    PlotModel model;
    model.setRuns({runOf(QStringLiteral("a"), test::twoSegmentHistory(12, 8, 15))});
    model.setMetrics(loss());
    // A restart from another epoch: the segments differ.
    const auto change = model.updateRun(QStringLiteral("a"), QStringLiteral("a"),
                                        test::twoSegmentHistory(12, 10, 15));
    QVERIFY(change.rebuilt);
    QCOMPARE(model.curves()[1].curve.points.front().epoch, 10);
    QVERIFY(model.removeRun(QStringLiteral("a")));
    QVERIFY(model.curves().empty());

    // A rewritten training.log: the same epochs, the loss of the later ones
    // gone. Extended in place, the plot kept drawing the old values.
    MetricHistory full = test::twoSegmentHistory(12, 8, 15);
    model.setRuns({runOf(QStringLiteral("c"), full)});
    MetricHistory cut = full;
    for (HistoryRow& row : cut.rows)
        if (row.epoch > 3)
            std::erase_if(row.samples, [](const MetricSample& s) { return s.metric == "loss"; });
    QVERIFY(model.updateRun(QStringLiteral("c"), QStringLiteral("c"), cut).rebuilt);
    for (const auto& c : model.curves())
        for (const CurvePoint& p : c.curve.points)
            QVERIFY(p.epoch <= 3);
}

// The window hands the workspace's histories over shared: a new or replaced
// history is kept as the same object (no copy of a long history on the GUI
// thread), and one that extends the shown run only adds its new rows to the
// model's own history, leaving the owner's untouched.
void tst_PlotModel::sharedHistoriesAreKeptNotCopied()
{
    PlotModel model;
    model.setMetrics(loss());
    const std::shared_ptr<const MetricHistory> first =
        std::make_shared<MetricHistory>(test::twoSegmentHistory(12, 8, 15));
    QVERIFY(model.updateRun(QStringLiteral("a"), QStringLiteral("a"), first).rebuilt);
    QCOMPARE(model.runs()[0].history.get(), first.get());

    const std::shared_ptr<const MetricHistory> restarted =
        std::make_shared<MetricHistory>(test::twoSegmentHistory(12, 10, 15));
    QVERIFY(model.updateRun(QStringLiteral("a"), QStringLiteral("a"), restarted).rebuilt);
    QCOMPARE(model.runs()[0].history.get(), restarted.get());

    const std::shared_ptr<const MetricHistory> longer =
        std::make_shared<MetricHistory>(test::twoSegmentHistory(12, 10, 20));
    const std::size_t restartedRows = restarted->rows.size();
    const auto change = model.updateRun(QStringLiteral("a"), QStringLiteral("a"), longer);
    QVERIFY(!change.rebuilt);
    QCOMPARE(model.runs()[0].history->rows.size(), longer->rows.size());
    QCOMPARE(restarted->rows.size(), restartedRows); // the owner's copy is not edited
    QCOMPARE(model.curves()[1].series.pointCount(), 11);
}

void tst_PlotModel::aCancelledBuildStopsAtTheNextCurve()
{
    // Two runs x two metrics: four (run, metric) builds, two segments each.
    PlotModel model;
    model.setMetrics({QStringLiteral("loss"), QStringLiteral("val_loss")});
    int consulted = 0;
    model.setCancelCheck([&consulted] { return ++consulted > 1; }); // cancelled after one
    std::vector<PlotModel::Run> runs;
    for (int r = 0; r < 2; ++r)
        runs.push_back(runOf(QString::number(r), test::twoSegmentHistory(12, 8, 20)));
    model.setRuns(std::move(runs));
    QCOMPARE(consulted, 2);
    QCOMPARE(int(model.curves().size()), 2); // the first run's loss only
    QCOMPARE(model.curves().front().run, 0);
    model.setCancelCheck({});
    model.setMetrics({QStringLiteral("loss"), QStringLiteral("val_loss")}); // unchanged: kept
    model.setShowSuperseded(false); // a rebuild, uncancelled: whole
    QCOMPARE(int(model.curves().size()), 8);
}

void tst_PlotModel::markersPreferTheNewestSegment()
{
    PlotModel model;
    model.setRuns({runOf(QStringLiteral("a"), test::twoSegmentHistory(12, 8, 20))});
    model.setMetrics({QStringLiteral("loss"), QStringLiteral("val_loss")});
    // Epoch 10 was trained twice; the restart's value is the one that counts.
    const auto points = model.markerPoints(0, 10);
    QCOMPARE(int(points.size()), 2);
    QCOMPARE(points[0].first, 10.0);
    QCOMPARE(points[0].second, test::syntheticLoss(10, 1));
    QCOMPARE(points[1].second, test::syntheticLoss(10, 1) + 0.15);
    // Epoch 8 (the resume point) is marked on the first segment's curve.
    QCOMPARE(model.markerPoints(0, 8).front().second, test::syntheticLoss(8, 0));
    QVERIFY(model.markerPoints(0, 99).empty());
}

void tst_PlotModel::keyOfEpochFollowsTheAxis()
{
    PlotModel model;
    model.setRuns({runOf(QStringLiteral("a"), test::twoSegmentHistory(12, 8, 20))});
    model.setMetrics(loss());
    QCOMPARE(model.keyOfEpoch(0, 10), std::optional<double>(10.0));
    QCOMPARE(model.keyOfEpoch(1, 10), std::nullopt); // no such run
    model.setOptions(PlotXAxis::WallTime, 0.0, false);
    // The restart's epoch 10: after 12 epochs, 10 minutes down, 2 more epochs.
    const double t = 1'700'000'000.0 + 60.0 * 12 + 600.0 + 120.0;
    QCOMPARE(model.keyOfEpoch(0, 10), std::optional<double>(t));
    model.setOptions(PlotXAxis::RelativeHours, 0.0, false);
    QCOMPARE(model.keyOfEpoch(0, 10), std::optional<double>((t - 1'700'000'060.0) / 3600.0));
    QCOMPARE(model.keyOfEpoch(0, 99), std::nullopt);
}

QTEST_GUILESS_MAIN(tst_PlotModel)
#include "tst_PlotModel.moc"
