#include "SyntheticHistory.h"
#include "plot/BranchCurves.h"
#include "plot/CurveBuilder.h"

#include <QTest>

using namespace ckpt;
using test::makeRow;

namespace {

// A restarted run whose trainer overwrote training.log: segment 0 (epochs
// 1..10) kept only ckpt.log's val_loss, segment 1 resumed from 6 and logged
// loss and val_loss for 7..14. The superseded folder's logs hold 1..10 whole.
MetricHistory overwrittenLog()
{
    MetricHistory h;
    h.segments.push_back(HistorySegment{0, {}, 1, 10, {}});
    h.segments.push_back(HistorySegment{1, 6, 7, 14, {}});
    for (int e = 1; e <= 10; ++e)
        h.rows.push_back(makeRow(0, e, {{"val_loss", 2.0 / e}}, {}, MetricSource::CkptLog));
    for (int e = 7; e <= 14; ++e)
        h.rows.push_back(makeRow(1, e, {{"loss", 0.5 / e}, {"val_loss", 0.6 / e}}));
    HistoryBranch folder;
    folder.kind = HistoryBranch::Kind::Superseded;
    folder.epoch = 6;
    for (int e = 1; e <= 10; ++e)
        folder.rows.push_back(makeRow(0, e, {{"loss", 1.0 / e}, {"val_loss", 2.5 / e}}));
    h.branches.push_back(folder);
    return h;
}

std::vector<int> epochsOf(const MetricCurve& c)
{
    std::vector<int> out;
    for (const auto& p : c.points)
        out.push_back(p.epoch);
    return out;
}

std::vector<int> range(int from, int to)
{
    std::vector<int> out;
    for (int e = from; e <= to; ++e)
        out.push_back(e);
    return out;
}

std::vector<MetricCurve> curvesOf(const MetricHistory& h, const char* metric, bool superseded)
{
    const MetricHistory history = h.restoredFromBranches();
    auto curves = CurveBuilder::build(history, metric);
    BranchCurves::add(curves, history, metric, superseded);
    return curves;
}

} // namespace

class tst_BranchCurves : public QObject
{
    Q_OBJECT

private slots:
    void restoredFillsOnlyWhatTheLogsLost();
    void restoredFollowsEachRestartToItsSegment();
    void supersededEpochsDrawnOnce_data();
    void supersededEpochsDrawnOnce();
    void leadInReplacesTheForksCopyOfItsParent();
};

void tst_BranchCurves::restoredFillsOnlyWhatTheLogsLost()
{
    const MetricHistory h = overwrittenLog();
    QVERIFY(h.hasSuperseded());
    const MetricHistory r = h.restoredFromBranches();
    QCOMPARE(r.rows.size(), h.rows.size()); // no new rows: segment 0 had them all
    for (const HistoryRow& row : r.rows) {
        if (row.segment != 0)
            continue;
        // val_loss as the run's own ckpt.log says, never the folder's copy.
        QCOMPARE(*row.value("val_loss"), 2.0 / row.epoch);
        // loss back for the epochs up to the restart, not for those it replaced.
        if (row.epoch <= 6)
            QCOMPARE(*row.value("loss"), 1.0 / row.epoch);
        else
            QVERIFY(!row.value("loss"));
    }
    // Plot: the loss of segment 0 is 1..6, the restart anchored on its epoch 6.
    const auto curves = curvesOf(h, "loss", true);
    QCOMPARE(epochsOf(curves[0]), range(1, 6));
    QCOMPARE(curves[1].parentSegment, std::optional<int>(0));
    QCOMPARE(epochsOf(curves[1]), range(6, 14));
    QVERIFY(curves[2].kind == MetricCurve::Kind::Superseded);
    QCOMPARE(epochsOf(curves[2]), range(6, 10));
}

void tst_BranchCurves::restoredFollowsEachRestartToItsSegment()
{
    // A second restart, from 3, after the first (from 6): its folder's epochs
    // 1..3 belong to segment 0, which trained them, not to segment 1.
    MetricHistory h = overwrittenLog();
    h.segments.push_back(HistorySegment{2, 3, 4, 9, {}});
    for (int e = 4; e <= 9; ++e)
        h.rows.push_back(makeRow(2, e, {{"loss", 0.4 / e}}));
    HistoryBranch second;
    second.kind = HistoryBranch::Kind::Superseded;
    second.epoch = 3;
    for (int e = 1; e <= 12; ++e)
        second.rows.push_back(makeRow(0, e, {{"accuracy", 0.1 * e}}));
    h.branches.push_back(second);
    const MetricHistory r = h.restoredFromBranches();
    for (const HistoryRow& row : r.rows)
        if (row.value("accuracy"))
            QVERIFY2(row.segment == 0 && row.epoch <= 3, qPrintable(QString::number(row.epoch)));
}

void tst_BranchCurves::supersededEpochsDrawnOnce_data()
{
    QTest::addColumn<bool>("shown");
    QTest::newRow("shown") << true;
    QTest::newRow("hidden") << false;
}

void tst_BranchCurves::supersededEpochsDrawnOnce()
{
    QFETCH(bool, shown);
    const auto curves = curvesOf(overwrittenLog(), "val_loss", shown);
    // Segment 0's own dead end 7..10 gives way to the folder's (or goes).
    QCOMPARE(epochsOf(curves[0]), range(1, 6));
    QVERIFY(!curves[0].supersededAfter);
    QCOMPARE(epochsOf(curves[1]), range(6, 14));
    QCOMPARE(curves.size(), std::size_t(shown ? 3 : 2));
    if (shown) {
        QCOMPARE(epochsOf(curves[2]), range(6, 10));
        QCOMPARE(curves[2].parentSegment, std::optional<int>(0));
        // It leaves the run at the run's own point.
        QCOMPARE(curves[2].points.front().value, curves[0].points.back().value);
        QCOMPARE(curves[2].points[1].value, 2.5 / 7);
    }
}

void tst_BranchCurves::leadInReplacesTheForksCopyOfItsParent()
{
    // The fork's training.log began as its parent's cut at the fork epoch 6.
    MetricHistory h = test::forkedHistory(6, 12);
    h.segments.front().resumedFrom.reset();
    h.segments.front().firstEpoch = 1;
    for (int e = 1; e <= 6; ++e)
        h.rows.insert(h.rows.begin() + (e - 1),
                      makeRow(0, e, {{"loss", test::syntheticLoss(e, 0)}}));
    const auto curves = curvesOf(h, "loss", true);
    QCOMPARE(curves.size(), std::size_t(2));
    QVERIFY(curves[0].kind == MetricCurve::Kind::LeadIn);
    QCOMPARE(epochsOf(curves[0]), range(1, 6));
    QCOMPARE(epochsOf(curves[1]), range(6, 12));
    QVERIFY(curves[1].kind == MetricCurve::Kind::Own);
}

QTEST_GUILESS_MAIN(tst_BranchCurves)
#include "tst_BranchCurves.moc"
