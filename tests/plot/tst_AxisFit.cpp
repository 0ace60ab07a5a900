#include "plot/AxisFit.h"

#include <QTest>

using namespace ckpt;

class tst_AxisFit : public QObject
{
    Q_OBJECT

private slots:
    void values_data();
    void values();
    void keys_data();
    void keys();
};

void tst_AxisFit::values_data()
{
    QTest::addColumn<double>("lower");
    QTest::addColumn<double>("upper");
    QTest::addColumn<bool>("logY");
    QTest::addColumn<double>("expectedLower");
    QTest::addColumn<double>("expectedUpper");

    QTest::newRow("linear pads 5%") << 0.0 << 10.0 << false << -0.5 << 10.5;
    QTest::newRow("flat line") << 2.0 << 2.0 << false << 1.8 << 2.2;
    QTest::newRow("flat zero") << 0.0 << 0.0 << false << -1.0 << 1.0;
    QTest::newRow("log pads by a factor")
        << 1.0 << 1e4 << true << 1.0 / std::pow(1e4, 0.05) << 1e4 * std::pow(1e4, 0.05);
    QTest::newRow("log flat") << 0.5 << 0.5 << true << 0.25 << 1.0;
    QTest::newRow("nothing") << 1.0 << 0.0 << false << 0.0 << 1.0;
    QTest::newRow("nothing log") << 1.0 << 0.0 << true << 0.1 << 10.0;
}

void tst_AxisFit::values()
{
    QFETCH(double, lower);
    QFETCH(double, upper);
    QFETCH(bool, logY);
    QFETCH(double, expectedLower);
    QFETCH(double, expectedUpper);
    const auto r = AxisFit::values(SeriesRange{lower, upper}, logY);
    QCOMPARE(r.lower, expectedLower);
    QCOMPARE(r.upper, expectedUpper);
}

void tst_AxisFit::keys_data()
{
    QTest::addColumn<int>("axis");
    QTest::addColumn<double>("at");
    QTest::addColumn<double>("expectedLower");
    QTest::addColumn<double>("expectedUpper");

    // A single point gets a window that suits the axis unit.
    QTest::newRow("epoch") << int(PlotXAxis::Epoch) << 5.0 << 4.0 << 6.0;
    QTest::newRow("wall time") << int(PlotXAxis::WallTime) << 1000.0 << 940.0 << 1060.0;
    QTest::newRow("hours") << int(PlotXAxis::RelativeHours) << 0.0 << -1.0 / 60 << 1.0 / 60;
}

void tst_AxisFit::keys()
{
    QFETCH(int, axis);
    QFETCH(double, at);
    QFETCH(double, expectedLower);
    QFETCH(double, expectedUpper);
    const auto r = AxisFit::keys(SeriesRange{at, at}, PlotXAxis(axis));
    QCOMPARE(r.lower, expectedLower);
    QCOMPARE(r.upper, expectedUpper);
    const auto wide = AxisFit::keys(SeriesRange{0.0, 100.0}, PlotXAxis(axis));
    QCOMPARE(wide.lower, -2.0);
    QCOMPARE(wide.upper, 102.0);
}

QTEST_GUILESS_MAIN(tst_AxisFit)
#include "tst_AxisFit.moc"
