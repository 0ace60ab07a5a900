// MetricPlot with a million points: built on the pool, reduced to the pixels,
// and still drawing every spike, every appended row and only the newest data.
#include "PlotInput.h"
#include "SyntheticHistory.h"
#include "plot/MetricPlot.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

using namespace ckpt;
using test::under;

namespace {
constexpr int kRows = 1'000'000;
constexpr int kSpikeRow = 654'321; // epoch kSpikeRow + 1
constexpr double kSpike = 7.0;

MetricHistory withSpike()
{
    MetricHistory h = test::longHistory(kRows, {"loss"});
    h.rows[kSpikeRow].samples.front().value = kSpike;
    return h;
}

std::vector<MetricPlot::RunHistory> runOf(const QString& name, MetricHistory history)
{
    std::vector<MetricPlot::RunHistory> runs;
    runs.push_back({QStringLiteral("a"), name, std::move(history)});
    return runs;
}

bool loaded(MetricPlot& plot)
{
    return QTest::qWaitFor([&] { return !plot.isLoading(); }, 60'000);
}

// Every background build and discard done, and their results delivered.
void settle()
{
    QThreadPool::globalInstance()->waitForDone();
    QApplication::processEvents();
    QApplication::processEvents();
}

bool holds(const QList<QPointF>& data, double key, double value)
{
    return std::any_of(data.begin(), data.end(),
                       [&](const QPointF& p) { return p.x() == key && p.y() == value; });
}

void wheel(MetricPlot& plot, QPoint at, int steps)
{
    auto [target, local] = under(plot, at);
    QWheelEvent event(local, target->mapToGlobal(QPointF(local)), QPoint(), QPoint(0, 120 * steps),
                      Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &event);
}
} // namespace

class tst_MetricPlotLarge : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void spikeSurvivesEveryZoom();
    void appendedPointsShowUp();
    void zoomReducesTheNewWindow();
    void aStaleBuildNeverOverwritesNewerData();

private:
    std::unique_ptr<MetricPlot> m_plot;
};

void tst_MetricPlotLarge::init()
{
    m_plot = std::make_unique<MetricPlot>();
    m_plot->resize(800, 500);
    m_plot->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_plot.get()));
    m_plot->setMetrics({QStringLiteral("loss")});
}

void tst_MetricPlotLarge::spikeSurvivesEveryZoom()
{
    const MetricHistory history = withSpike();
    std::vector<double> values;
    for (const auto& row : history.rows)
        values.push_back(row.samples.front().value);
    m_plot->setRuns(runOf(QStringLiteral("run-a"), history));
    QVERIFY(m_plot->isLoading()); // built on the pool
    QVERIFY(loaded(*m_plot));
    QCOMPARE(m_plot->pointCount(0), kRows);
    QVERIFY(m_plot->graphDataCount(0) < 4 * 1000); // reduced to the pixels
    const double spikeKey = kSpikeRow + 1.0;
    QVERIFY(holds(m_plot->graphData(0), spikeKey, kSpike));
    // Zoomed in on the spike step by step down to a few dozen epochs: it and the
    // extremes of every window stay drawn.
    for (int step = 0; step < 10; ++step) {
        const QPoint at = m_plot->pointPosition(0, kSpikeRow);
        QVERIFY(at.x() >= 0);
        wheel(*m_plot, at, 6);
        const auto [lower, upper] = m_plot->keyWindow();
        QVERIFY(lower < spikeKey && spikeKey < upper);
        const QList<QPointF> data = m_plot->graphData(0);
        QVERIFY2(holds(data, spikeKey, kSpike),
                 qPrintable(QStringLiteral("spike lost in [%1, %2]").arg(lower).arg(upper)));
        const auto first = values.begin() + std::max(0, int(std::ceil(lower)) - 1);
        const auto last = values.begin() + std::min(kRows, int(std::floor(upper)));
        const auto [low, high] = std::minmax_element(first, last);
        const auto drawn = [&](double v) {
            return std::any_of(data.begin(), data.end(),
                               [&](const QPointF& p) { return p.y() == v; });
        };
        QVERIFY(drawn(*low));
        QVERIFY(drawn(*high));
    }
}

void tst_MetricPlotLarge::appendedPointsShowUp()
{
    m_plot->setRuns(runOf(QStringLiteral("run-a"), withSpike()));
    // A live row while the curves are being built waits for them...
    m_plot->appendRow(QStringLiteral("a"), test::makeRow(0, kRows + 1, {{"loss", 3.5}}));
    QVERIFY(m_plot->isLoading());
    QVERIFY(loaded(*m_plot));
    QCOMPARE(m_plot->pointCount(0), kRows + 1);
    QVERIFY(holds(m_plot->graphData(0), kRows + 1.0, 3.5));
    // ...and once they are shown, is appended in place.
    m_plot->appendRow(QStringLiteral("a"), test::makeRow(0, kRows + 2, {{"loss", -2.5}}));
    QVERIFY(!m_plot->isLoading());
    QCOMPARE(m_plot->pointCount(0), kRows + 2);
    QVERIFY(holds(m_plot->graphData(0), kRows + 2.0, -2.5));
    const auto [lower, upper] = m_plot->keyWindow();
    QVERIFY(upper > kRows + 2.0); // the axes followed
    QVERIFY(lower < 1.0);
    QVERIFY(holds(m_plot->graphData(0), kSpikeRow + 1.0, kSpike));
}

void tst_MetricPlotLarge::zoomReducesTheNewWindow()
{
    m_plot->setRuns(runOf(QStringLiteral("run-a"), withSpike()));
    QVERIFY(loaded(*m_plot));
    const int whole = m_plot->graphDataCount(0);
    QVERIFY2(whole > 800 && whole < 4 * 1000, qPrintable(QString::number(whole)));
    const QPoint middle = m_plot->pointPosition(0, 400'000);
    for (int step = 0; step < 10; ++step)
        wheel(*m_plot, middle, 6);
    // Few enough epochs in the window to draw each: the data is exactly them,
    // one neighbour on each side included.
    const auto [lower, upper] = m_plot->keyWindow();
    QVERIFY(upper - lower < 200.0);
    const QList<QPointF> data = m_plot->graphData(0);
    const int first = int(std::ceil(lower)) - 1;
    const int last = int(std::floor(upper)) + 1;
    QCOMPARE(data.size(), last - first + 1);
    for (int i = 0; i < data.size(); ++i)
        QCOMPARE(data[i].x(), double(first + i));
    // Out again: reduced again.
    for (int step = 0; step < 10; ++step)
        wheel(*m_plot, middle, -6);
    QVERIFY(m_plot->graphDataCount(0) > 800 && m_plot->graphDataCount(0) < 4 * 1000);
}

void tst_MetricPlotLarge::aStaleBuildNeverOverwritesNewerData()
{
    QSignalSpy shown(m_plot.get(), &MetricPlot::loaded);
    // The old history is big and slow to build, the new one is quick: the old
    // build ends last and must be dropped.
    m_plot->setRuns(runOf(QStringLiteral("run-old"), withSpike()));
    m_plot->setRuns(runOf(QStringLiteral("run-new"), test::longHistory(3000, {"loss"})));
    QVERIFY(loaded(*m_plot));
    settle();
    QCOMPARE(shown.count(), 1);
    QVERIFY(m_plot->graphName(0).startsWith(QStringLiteral("run-new")));
    QCOMPARE(m_plot->pointCount(0), 3000);

    // A small history is drawn at once (here) and stays: the big build under
    // way when it came is dropped too.
    m_plot->setRuns(runOf(QStringLiteral("run-old"), withSpike()));
    m_plot->setRuns(runOf(QStringLiteral("run-small"), test::twoSegmentHistory()));
    QVERIFY(!m_plot->isLoading());
    QVERIFY(m_plot->graphName(0).startsWith(QStringLiteral("run-small")));
    settle();
    QCOMPARE(shown.count(), 1);
    QVERIFY(m_plot->graphName(0).startsWith(QStringLiteral("run-small")));
    QCOMPARE(m_plot->pointCount(0), 12);
}

QTEST_MAIN(tst_MetricPlotLarge)
#include "tst_MetricPlotLarge.moc"
