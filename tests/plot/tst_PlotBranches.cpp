#include "PlotInput.h"
#include "SyntheticHistory.h"
#include "plot/MetricPlot.h"
#include "plotpanel/PlotPanel.h"

#include <QCheckBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace ckpt;
using test::under;

namespace {

std::vector<MetricPlot::RunHistory>
runs(std::initializer_list<std::pair<const char*, MetricHistory>> list)
{
    std::vector<MetricPlot::RunHistory> out;
    for (const auto& [name, history] : list)
        out.push_back({QString::fromLatin1(name), QString::fromLatin1(name), history});
    return out;
}

QList<int> graphsOfKind(const MetricPlot& plot, MetricCurve::Kind kind)
{
    QList<int> out;
    for (int g = 0; g < plot.graphCount(); ++g)
        if (plot.graphKind(g) == kind)
            out << g;
    return out;
}

QList<int> range(int from, int to)
{
    QList<int> out;
    for (int e = from; e <= to; ++e)
        out << e;
    return out;
}

} // namespace

// Forks drawn out of their parent's curve, and the epochs restarts replaced
// drawn as faded branches that the plot panel's toggle hides.
class tst_PlotBranches : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void forkGrowsOutOfItsParentsPoint();
    void forkOverlaidOnItsParent();
    void supersededBranchFadedOnceWithItsLegendAndTooltip();
    void toggleHidesSupersededEpochs();

private:
    std::unique_ptr<PlotPanel> m_panel;
    MetricPlot* m_plot = nullptr;
};

void tst_PlotBranches::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_PlotBranches::init()
{
    m_panel = std::make_unique<PlotPanel>();
    m_panel->resize(1000, 560);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    m_plot = m_panel->plot();
}

void tst_PlotBranches::forkGrowsOutOfItsParentsPoint()
{
    m_plot->setRuns(runs({{"fork", test::forkedHistory(6, 14)}}));
    m_plot->setMetrics({QStringLiteral("loss")});
    const auto leads = graphsOfKind(*m_plot, MetricCurve::Kind::LeadIn);
    const auto own = graphsOfKind(*m_plot, MetricCurve::Kind::Own);
    QCOMPARE(leads.size(), 1);
    QCOMPARE(own.size(), 1);
    QCOMPARE(m_plot->graphEpochs(leads[0]), range(1, 6));
    QCOMPARE(m_plot->graphEpochs(own[0]), range(6, 14)); // the lead-in's point 6, then its own
    // Drawn: the fork's line starts on the lead-in's last point, on screen too.
    QCOMPARE(m_plot->pointPosition(own[0], 0), m_plot->pointPosition(leads[0], 5));
    QCOMPARE(m_plot->graphDataCount(leads[0]), 6);
    // Thin and faint beside the fork's own line; no legend entry of its own.
    QVERIFY(m_plot->graphPen(leads[0]).color().alpha() < 128);
    QCOMPARE(m_plot->graphPen(own[0]).color().alpha(), 255);
    QVERIFY(m_plot->graphPen(leads[0]).widthF() < m_plot->graphPen(own[0]).widthF());
    QCOMPARE(m_plot->legendEntries(), QStringList{QStringLiteral("loss")});
    QCOMPARE(m_plot->restartMarkerCount(), 0); // a fork's join is not a restart

    auto [target, local] = under(*m_plot, m_plot->pointPosition(leads[0], 2));
    QTest::mouseMove(target, local);
    QTRY_VERIFY(m_plot->hoverText().contains(QStringLiteral("epoch 3: ")));
    QVERIFY2(m_plot->hoverText().contains(QStringLiteral("RUN001's epoch, before the fork at "
                                                         "epoch 6")),
             qPrintable(m_plot->hoverText()));
    // A click on the parent's epochs selects nothing in the fork's table.
    QSignalSpy clicked(m_plot, &MetricPlot::epochClicked);
    QTest::mouseClick(target, Qt::LeftButton, {}, local);
    QCOMPARE(clicked.count(), 0);
}

void tst_PlotBranches::forkOverlaidOnItsParent()
{
    const MetricHistory parent = test::twoSegmentHistory();
    m_plot->setRuns(runs({{"RUN001", parent}, {"RUN001-fork", test::forkedHistory(6, 14)}}));
    m_plot->setMetrics({QStringLiteral("loss")});
    const auto leads = graphsOfKind(*m_plot, MetricCurve::Kind::LeadIn);
    QCOMPARE(leads.size(), 1);
    // The lead-in lies on the parent's curve: the same pixels at every epoch.
    for (int i = 0; i < 6; ++i)
        QCOMPARE(m_plot->pointPosition(leads[0], i), m_plot->pointPosition(0, i));
    QCOMPARE(m_plot->legendEntries().filter(QStringLiteral("RUN001-fork")),
             QStringList{QStringLiteral("RUN001-fork · loss")});
}

void tst_PlotBranches::supersededBranchFadedOnceWithItsLegendAndTooltip()
{
    m_plot->setRuns(runs({{"RUN001", test::restartedWithSupersededFolder(12, 8, 20)}}));
    m_plot->setMetrics({QStringLiteral("loss")});
    const auto faded = graphsOfKind(*m_plot, MetricCurve::Kind::Superseded);
    QCOMPARE(faded.size(), 1);
    QCOMPARE(m_plot->graphEpochs(faded[0]), range(8, 12));
    QCOMPARE(m_plot->graphDataCount(faded[0]), 5);
    QVERIFY(m_plot->graphPen(faded[0]).color().alpha() < 255);
    // The first segment ends where the restart resumed: its old 9..12 are drawn
    // once, by the branch, not again as the segment's own dead end.
    QCOMPARE(m_plot->graphEpochs(0), range(1, 8));
    QCOMPARE(m_plot->graphDataCount(0), 8);
    QCOMPARE(m_plot->graphEpochs(1), range(8, 20)); // the restart, anchored at 8
    QCOMPARE(m_plot->legendEntries(),
             (QStringList{QStringLiteral("loss"), QStringLiteral("superseded (restart from 8)"),
                          QStringLiteral("restart")}));

    auto [target, local] = under(*m_plot, m_plot->pointPosition(faded[0], 2)); // epoch 10
    QTest::mouseMove(target, local);
    QTRY_VERIFY(m_plot->hoverText().contains(QStringLiteral("epoch 10: ")));
    QVERIFY2(m_plot->hoverText().contains(
                 QStringLiteral("superseded by restart from epoch 8 at 2026-11-24 10:24")),
             qPrintable(m_plot->hoverText()));
}

void tst_PlotBranches::toggleHidesSupersededEpochs()
{
    // Two restarts, from 8 and then from 15: two faded branches.
    MetricHistory h = test::restartedWithSupersededFolder(12, 8, 20);
    h.segments.push_back(HistorySegment{2, 15, 16, 22, {}});
    for (int e = 16; e <= 22; ++e)
        h.rows.push_back(test::makeRow(2, e, {{"loss", test::syntheticLoss(e, 2)}}));
    HistoryBranch second = h.branches.front();
    second.epoch = 15;
    second.time = "2026-11-24 11:02";
    second.rows.clear();
    for (const auto& row : h.rows)
        if (row.segment == 1 && row.epoch >= 15)
            second.rows.push_back(row);
    h.branches.push_back(second);
    m_plot->setRuns(runs({{"RUN001", h}}));
    m_plot->setMetrics({QStringLiteral("loss")});
    QCOMPARE(graphsOfKind(*m_plot, MetricCurve::Kind::Superseded).size(), 2);
    QCOMPARE(m_plot->legendEntries().filter(QStringLiteral("superseded")).size(), 2);

    QCheckBox* box = m_panel->supersededBox();
    QVERIFY(box->isChecked());
    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(6, box->height() / 2));
    QVERIFY(!box->isChecked());
    QVERIFY(!m_plot->showSuperseded());
    QVERIFY(graphsOfKind(*m_plot, MetricCurve::Kind::Superseded).isEmpty());
    QVERIFY(m_plot->legendEntries().filter(QStringLiteral("superseded")).isEmpty());
    QCOMPARE(m_plot->graphEpochs(0), range(1, 8));
    QCOMPARE(m_plot->graphEpochs(1), range(8, 15));
    QCOMPARE(m_plot->graphEpochs(2), range(15, 22));
    for (int g = 0; g < m_plot->graphCount(); ++g) // nothing faded is left
        QCOMPARE(m_plot->graphPen(g).color().alpha(), 255);

    QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(6, box->height() / 2));
    QCOMPARE(graphsOfKind(*m_plot, MetricCurve::Kind::Superseded).size(), 2);
}

QTEST_MAIN(tst_PlotBranches)
#include "tst_PlotBranches.moc"
