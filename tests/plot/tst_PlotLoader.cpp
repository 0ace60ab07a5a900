#include "SyntheticHistory.h"
#include "plot/AxisFit.h"
#include "plot/PlotLoader.h"

#include <QSignalSpy>
#include <QTest>
#include <QThreadPool>

using namespace ckpt;

namespace {
std::vector<PlotModel::Run> runsOf(const QString& id, int rows)
{
    PlotModel::Run run;
    run.id = id;
    run.name = id;
    run.history = std::make_shared<MetricHistory>(test::longHistory(rows, {"loss", "val_loss"}));
    return {run};
}

PlotSettings lossOnly()
{
    PlotSettings s;
    s.metrics = {QStringLiteral("loss")};
    return s;
}

// Every build and discard finished, and what they posted delivered.
void settle(PlotLoader& loader)
{
    loader.waitForAll();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
}
} // namespace

class tst_PlotLoader : public QObject
{
    Q_OBJECT

private slots:
    void buildsWithTheSettings();
    void aStaleBuildNeverOverwritesANewerOne();
    void cancelDropsTheBuild();
};

void tst_PlotLoader::buildsWithTheSettings()
{
    PlotLoader loader;
    QSignalSpy loaded(&loader, &PlotLoader::loaded);
    auto runs = runsOf(QStringLiteral("a"), 30'000);
    const MetricHistory* history = runs.front().history.get();
    PlotSettings settings = lossOnly();
    settings.smoothing = 0.5;
    loader.load(std::move(runs), settings, 640);
    QVERIFY(loader.busy());
    QTRY_COMPARE(loaded.count(), 1);
    QVERIFY(!loader.busy());
    const auto built = loader.take();
    QVERIFY(built);
    QVERIFY(!loader.take()); // once
    const PlotModel& model = built->model;
    QCOMPARE(model.metrics(), settings.metrics);
    QCOMPARE(model.smoothing(), 0.5);
    QCOMPARE(model.curves().size(), std::size_t(1));
    QCOMPARE(model.curves().front().series.pointCount(), 30'000);
    QCOMPARE(model.runs().front().history.get(), history); // shared, not copied
    // Reduced on the pool to the window the plot will fit to the data.
    const auto window = AxisFit::keys(model.keyRange(), PlotXAxis::Epoch);
    QCOMPARE(built->window.lower, window.lower);
    QCOMPARE(built->window.upper, window.upper);
    QCOMPARE(built->buckets, 640);
    QCOMPARE(built->reduced.size(), std::size_t(1));
    QVERIFY(!built->reduced.front().line.keys.isEmpty());
    QVERIFY(built->reduced.front().line.keys.size() <= 4 * 642);
    QVERIFY(!built->reduced.front().raw.keys.isEmpty()); // smoothing on: the faint copy
}

void tst_PlotLoader::aStaleBuildNeverOverwritesANewerOne()
{
    PlotLoader loader;
    QSignalSpy loaded(&loader, &PlotLoader::loaded);
    // The old one is big and slow, the new one small and quick: the old one
    // finishes last and must still not be delivered.
    loader.load(runsOf(QStringLiteral("old"), 400'000), lossOnly(), 640);
    loader.load(runsOf(QStringLiteral("new"), 50), lossOnly(), 640);
    settle(loader);
    QTRY_COMPARE(loaded.count(), 1);
    QTest::qWait(50);
    QCOMPARE(loaded.count(), 1);
    const auto built = loader.take();
    QVERIFY(built);
    QCOMPARE(built->model.runs().front().id, QStringLiteral("new"));
    QCOMPARE(built->model.curves().front().series.pointCount(), 50);
}

void tst_PlotLoader::cancelDropsTheBuild()
{
    PlotLoader loader;
    QSignalSpy loaded(&loader, &PlotLoader::loaded);
    loader.load(runsOf(QStringLiteral("a"), 100'000), lossOnly(), 640);
    loader.cancel();
    QVERIFY(!loader.busy());
    settle(loader);
    QTest::qWait(50);
    QCOMPARE(loaded.count(), 0);
    QVERIFY(!loader.take());
}

QTEST_GUILESS_MAIN(tst_PlotLoader)
#include "tst_PlotLoader.moc"
