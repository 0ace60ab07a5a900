#include "SyntheticHistory.h"
#include "plot/CurveBuilder.h"
#include "plot/PlotSeries.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace ckpt;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

MetricCurve curveOf(std::vector<std::pair<int, double>> points, int joinStep = 1)
{
    MetricCurve c;
    c.metric = "loss";
    c.joinStep = joinStep;
    for (auto [epoch, value] : points)
        c.points.push_back(
            CurvePoint{epoch, value, 1000.0 + 60.0 * epoch, MetricSource::TrainingLog});
    return c;
}

// As text, so that NaN entries compare equal to NaN.
QString list(const QList<double>& v)
{
    QStringList out;
    for (double d : v)
        out << QString::number(d, 'g', 17);
    return out.join(QLatin1Char(' '));
}
} // namespace

class tst_PlotSeries : public QObject
{
    Q_OBJECT

private slots:
    void gapsAndUndrawableValues_data();
    void gapsAndUndrawableValues();
    void timeAxes();
    void branchContinuesParentSmoothing();
    void appendMatchesFullBuild();
    void appendRefusesWhatItCannotExtend();
    void unsortedWallTimesAreReported();
    void deadEndAfterTheBranchPoint();
};

void tst_PlotSeries::gapsAndUndrawableValues_data()
{
    QTest::addColumn<bool>("logY");
    QTest::addColumn<QList<double>>("keys");
    QTest::addColumn<QList<double>>("raw");
    QTest::addColumn<int>("points");
    QTest::addColumn<double>("lowest");

    // Curve: epochs 1, 2, 5, 6 with values 2, NaN, 0, 4 (epochs 3-4 pruned).
    QTest::newRow("linear") << false << QList<double>{1, 2, 3.5, 5, 6}
                            << QList<double>{2, kNaN, kNaN, 0, 4} << 4 << 0.0;
    QTest::newRow("log drops zero") << true << QList<double>{1, 2, 3.5, 5, 6}
                                    << QList<double>{2, kNaN, kNaN, kNaN, 4} << 4 << 2.0;
}

void tst_PlotSeries::gapsAndUndrawableValues()
{
    QFETCH(bool, logY);
    QFETCH(QList<double>, keys);
    QFETCH(QList<double>, raw);
    QFETCH(int, points);
    QFETCH(double, lowest);
    SeriesOptions options;
    options.logY = logY;
    const PlotSeries s(curveOf({{1, 2.0}, {2, kNaN}, {5, 0.0}, {6, 4.0}}), options, nullptr);
    QCOMPARE(list(s.keys()), list(keys));
    QCOMPARE(list(s.raw()), list(raw));
    QCOMPARE(s.pointCount(), points);
    QCOMPARE(s.curvePoint(2), int(PlotSeries::Gap));
    QCOMPARE(s.curvePoint(3), 2);
    QCOMPARE(s.valueRange().lower, lowest);
    QCOMPARE(s.valueRange().upper, 4.0);
    QCOMPARE(s.keyRange().lower, 1.0);
    QVERIFY(s.sorted());
}

void tst_PlotSeries::timeAxes()
{
    const auto curves = CurveBuilder::build(test::twoSegmentHistory(12, 8, 20), "loss");
    SeriesOptions options;
    options.xAxis = PlotXAxis::RelativeHours;
    options.timeOrigin = 1'700'000'000.0;
    const auto series = PlotSeries::buildAll(curves, options);
    QCOMPARE(series.size(), std::size_t(2));
    QCOMPARE(series[0].keys().front(), 60.0 / 3600.0);
    // The anchor is left out on time axes: the branch starts at its own first epoch,
    // after ten minutes of downtime.
    QCOMPARE(series[1].pointCount(), 12);
    QCOMPARE(series[1].keys().front(), (60.0 * 12 + 600.0 + 60.0) / 3600.0);
    QCOMPARE(series[1].raw().front(), test::syntheticLoss(9, 1));

    options.xAxis = PlotXAxis::WallTime;
    MetricCurve c = curveOf({{1, 1.0}, {2, 2.0}, {3, 3.0}});
    c.points[1].wallTime.reset();
    const PlotSeries s(c, options, nullptr);
    // Epoch 2 has no time: left out, and epochs 1 and 3 are then 2 apart: a gap.
    QCOMPARE(list(s.keys()), list({1060.0, 1120.0, 1180.0}));
    QCOMPARE(list(s.raw()), list({1.0, kNaN, 3.0}));
    QCOMPARE(s.pointCount(), 2);
}

void tst_PlotSeries::branchContinuesParentSmoothing()
{
    MetricCurve parent = curveOf({{1, 1.0}, {2, 3.0}, {3, 5.0}});
    MetricCurve branch = curveOf({{2, 3.0}, {3, 10.0}});
    branch.segment = 1;
    branch.parentSegment = 0;
    SeriesOptions options;
    options.smoothing = 0.5;
    const auto series = PlotSeries::buildAll(std::vector<MetricCurve>{parent, branch}, options);
    // Parent: 1, then 1.75 / 0.75. The branch starts exactly there (the anchor is
    // not counted twice) and continues: (0.5 * 1.75 + 0.5 * 10) / (1 - 0.125).
    QCOMPARE(series[0].smoothed()[1], 1.75 / 0.75);
    QCOMPARE(series[1].smoothed()[0], series[0].smoothed()[1]);
    QCOMPARE(series[1].smoothed()[1], (0.5 * 1.75 + 5.0) / 0.875);
    QCOMPARE(series[1].raw()[1], 10.0);
}

void tst_PlotSeries::appendMatchesFullBuild()
{
    SeriesOptions options;
    options.smoothing = 0.8;
    const MetricCurve full = curveOf({{1, 4.0}, {2, 3.0}, {3, 3.5}, {6, 1.0}, {7, 0.5}});
    MetricCurve grown = full;
    grown.points.resize(2);
    PlotSeries s(grown, options, nullptr);
    for (std::size_t i = 2; i < full.points.size(); ++i) {
        grown.points.push_back(full.points[i]);
        QVERIFY(s.appendLast(grown));
    }
    const PlotSeries whole(full, options, nullptr);
    QCOMPARE(list(s.keys()), list(whole.keys()));
    QCOMPARE(list(s.raw()), list(whole.raw()));
    QCOMPARE(list(s.smoothed()), list(whole.smoothed()));
    QCOMPARE(s.pointCount(), 5);
    QCOMPARE(s.size(), 6); // one gap entry between epochs 3 and 6
}

void tst_PlotSeries::appendRefusesWhatItCannotExtend()
{
    MetricCurve c = curveOf({{1, 4.0}, {2, 3.0}});
    PlotSeries s(c, SeriesOptions{}, nullptr);
    c.points.push_back(CurvePoint{2, 1.0, {}, MetricSource::TrainingLog});
    QVERIFY(!s.appendLast(c));
    c.points.back().epoch = 1;
    QVERIFY(!s.appendLast(c));
    QCOMPARE(s.size(), 2);
}

void tst_PlotSeries::unsortedWallTimesAreReported()
{
    SeriesOptions options;
    options.xAxis = PlotXAxis::WallTime;
    MetricCurve c = curveOf({{1, 1.0}, {2, 2.0}, {3, 3.0}});
    c.points[2].wallTime = 500.0; // a clock set back
    QVERIFY(!PlotSeries(c, options, nullptr).sorted());
    options.xAxis = PlotXAxis::Epoch;
    QVERIFY(PlotSeries(c, options, nullptr).sorted());
}

void tst_PlotSeries::deadEndAfterTheBranchPoint()
{
    const auto curves = CurveBuilder::build(test::twoSegmentHistory(12, 8, 20), "loss");
    const auto series = PlotSeries::buildAll(curves, SeriesOptions{});
    QCOMPARE(series[0].supersededFrom(), 8); // epochs 9..12 were trained again
    QCOMPARE(series[1].supersededFrom(), -1);
    QCOMPARE(series[0].entryOfPoint(3), 3);
    QCOMPARE(series[0].entryOfPoint(12), -1);
    const PlotSeries gappy(curveOf({{1, 1.0}, {2, 2.0}, {5, 3.0}}), SeriesOptions{}, nullptr);
    QCOMPARE(gappy.entryOfPoint(2), 3); // past the gap entry
}

QTEST_GUILESS_MAIN(tst_PlotSeries)
#include "tst_PlotSeries.moc"
