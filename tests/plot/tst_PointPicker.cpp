#include "plot/PointPicker.h"

#include <QTest>

#include <limits>

using namespace ckpt;

namespace {
// 10 pixels per epoch, value 1 = 100 pixels up from y = 500.
QPointF toPixel(double key, double value)
{
    return {key * 10.0, 500.0 - value * 100.0};
}
} // namespace

class tst_PointPicker : public QObject
{
    Q_OBJECT

private slots:
    void nearest_data();
    void nearest();
};

void tst_PointPicker::nearest_data()
{
    QTest::addColumn<QPointF>("pos");
    QTest::addColumn<bool>("smoothed");
    QTest::addColumn<int>("entry");
    QTest::addColumn<bool>("onSmoothed");

    // Epochs 1..5 with values 1,2,3,NaN,2 (entry 3 is not drawn).
    QTest::newRow("on a point") << QPointF(20, 300) << false << 1 << false;
    QTest::newRow("near a point") << QPointF(23, 304) << false << 1 << false;
    QTest::newRow("too far") << QPointF(20, 330) << false << -1 << false;
    QTest::newRow("undrawn value is never picked") << QPointF(38, 300) << false << -1 << false;
    QTest::newRow("between picks the closer") << QPointF(44, 300) << false << 4 << false;
}

void tst_PointPicker::nearest()
{
    QFETCH(QPointF, pos);
    QFETCH(bool, smoothed);
    QFETCH(int, entry);
    QFETCH(bool, onSmoothed);
    MetricCurve c;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    int epoch = 1;
    for (double v : {1.0, 2.0, 3.0, nan, 2.0})
        c.points.push_back(CurvePoint{epoch++, v, {}, MetricSource::TrainingLog});
    const PlotSeries s(c, SeriesOptions{}, nullptr);
    const auto hit = PointPicker::nearest(s, pos, 10.0, (pos.x() - 10) / 10.0,
                                          (pos.x() + 10) / 10.0, toPixel, smoothed);
    QCOMPARE(hit.entry, entry);
    QCOMPARE(hit.onSmoothed, onSmoothed);
}

QTEST_GUILESS_MAIN(tst_PointPicker)
#include "tst_PointPicker.moc"
