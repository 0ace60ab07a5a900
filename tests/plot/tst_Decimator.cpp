#include "plot/Decimator.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace ckpt;

namespace {
QVector<double> iota(int n)
{
    QVector<double> v(n);
    for (int i = 0; i < n; ++i)
        v[i] = i;
    return v;
}

QVector<double> noisy(int n)
{
    QVector<double> v(n);
    for (int i = 0; i < n; ++i)
        v[i] = std::sin(i * 0.37) * (1.0 + i % 7) + (i == 4321 ? 50.0 : 0.0);
    return v;
}
} // namespace

class tst_Decimator : public QObject
{
    Q_OBJECT

private slots:
    void sparseDataPassesUnchanged();
    void keepsExtremesAndEnds_data();
    void keepsExtremesAndEnds();
    void keepsBreaks();
    void cutsToTheWindowPlusNeighbours();
};

void tst_Decimator::sparseDataPassesUnchanged()
{
    const auto keys = iota(50);
    const auto values = noisy(50);
    const auto out = Decimator::m4(keys, values, 0.0, 49.0, 500);
    QCOMPARE(out.keys, keys);
    QCOMPARE(out.values, values);
}

void tst_Decimator::keepsExtremesAndEnds_data()
{
    QTest::addColumn<int>("points");
    QTest::addColumn<int>("buckets");
    QTest::newRow("1e4 on 300 px") << 10'000 << 300;
    QTest::newRow("1e5 on 900 px") << 100'000 << 900;
    QTest::newRow("fewer points than 4 per bucket") << 1'000 << 400;
}

void tst_Decimator::keepsExtremesAndEnds()
{
    QFETCH(int, points);
    QFETCH(int, buckets);
    const auto keys = iota(points);
    const auto values = noisy(points);
    const auto out = Decimator::m4(keys, values, 0.0, points - 1.0, buckets);
    QVERIFY(out.keys.size() <= 4 * (buckets + 1));
    QVERIFY(std::is_sorted(out.keys.begin(), out.keys.end()));
    QCOMPARE(out.keys.front(), 0.0);
    QCOMPARE(out.keys.back(), points - 1.0);
    QCOMPARE(*std::max_element(out.values.begin(), out.values.end()),
             *std::max_element(values.begin(), values.end()));
    QCOMPARE(*std::min_element(out.values.begin(), out.values.end()),
             *std::min_element(values.begin(), values.end()));
    // Every kept entry is a real one.
    for (qsizetype i = 0; i < out.keys.size(); ++i)
        QCOMPARE(out.values[i], values[qsizetype(out.keys[i])]);
}

void tst_Decimator::keepsBreaks()
{
    const auto keys = iota(10'000);
    auto values = noisy(10'000);
    values[5000] = std::numeric_limits<double>::quiet_NaN();
    const auto out = Decimator::m4(keys, values, 0.0, 9999.0, 100);
    const auto nan =
        std::find_if(out.values.begin(), out.values.end(), [](double v) { return std::isnan(v); });
    QVERIFY(nan != out.values.end());
    QCOMPARE(out.keys[nan - out.values.begin()], 5000.0);
    QCOMPARE(
        std::count_if(out.values.begin(), out.values.end(), [](double v) { return std::isnan(v); }),
        1);
}

void tst_Decimator::cutsToTheWindowPlusNeighbours()
{
    const auto keys = iota(100'000);
    const auto values = noisy(100'000);
    const auto out = Decimator::m4(keys, values, 1000.5, 1010.5, 1000);
    QCOMPARE(out.keys.front(), 1000.0); // the neighbour on the left
    QCOMPARE(out.keys.back(), 1011.0);  // and on the right
    QCOMPARE(out.keys.size(), 12);
    QVERIFY(Decimator::m4(keys, values, -10.0, -5.0, 10).keys.size() <= 1);
}

QTEST_GUILESS_MAIN(tst_Decimator)
#include "tst_Decimator.moc"
