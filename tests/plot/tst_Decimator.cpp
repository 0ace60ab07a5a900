#include "plot/Decimator.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <span>
#include <vector>

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
    void summaryKeepsEverySpikeAtEveryZoom_data();
    void summaryKeepsEverySpikeAtEveryZoom();
    void summaryReducesARangeOnly();
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

namespace {
// Per pixel column (bucket) of the window: the lowest and highest drawable value.
std::map<long long, std::pair<double, double>> columns(std::span<const double> keys,
                                                       std::span<const double> values, double lower,
                                                       double upper, int buckets)
{
    std::map<long long, std::pair<double, double>> out;
    const double width = (upper - lower) / buckets;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (std::isnan(values[i]))
            continue;
        const auto b = static_cast<long long>(std::floor((keys[i] - lower) / width));
        auto [it, fresh] = out.try_emplace(b, values[i], values[i]);
        it->second.first = std::min(it->second.first, values[i]);
        it->second.second = std::max(it->second.second, values[i]);
    }
    return out;
}

bool sameEntries(const Decimator::Output& a, const Decimator::Output& b)
{
    const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
    return a.keys == b.keys &&
           std::equal(a.values.begin(), a.values.end(), b.values.begin(), b.values.end(), same);
}
} // namespace

void tst_Decimator::summaryKeepsEverySpikeAtEveryZoom_data()
{
    QTest::addColumn<int>("spike");
    QTest::addColumn<double>("value");
    QTest::addColumn<int>("buckets");
    QTest::newRow("up, 900 px") << 777'777 << 9.0 << 900;
    QTest::newRow("down, 900 px") << 123'456 << -9.0 << 900;
    QTest::newRow("up next to a break, 301 px") << 500'001 << 9.0 << 301;
}

void tst_Decimator::summaryKeepsEverySpikeAtEveryZoom()
{
    QFETCH(int, spike);
    QFETCH(double, value);
    QFETCH(int, buckets);
    const int n = 1'000'000;
    const auto keys = iota(n);
    QVector<double> values(n);
    for (int i = 0; i < n; ++i)
        values[i] = 0.1 * std::sin(i * 0.37) + 1e-6 * i;
    values[spike] = value;
    values[500'000] = std::numeric_limits<double>::quiet_NaN();
    MinMaxPyramid summary;
    summary.build(values);
    const std::vector<int> breaks{500'000};
    const Decimator::Series series{keys, values, 0, n, &summary, breaks};
    // From the whole series down to a few points per pixel and fewer, around the spike.
    for (double half = n; half >= 10.0; half /= 2.7) {
        const double lower = spike - half * 0.37;
        const double upper = spike + half * 0.63;
        const auto out = Decimator::m4(series, lower, upper, buckets);
        QVERIFY2(std::find(out.values.begin(), out.values.end(), value) != out.values.end(),
                 qPrintable(QStringLiteral("spike lost in [%1, %2]").arg(lower).arg(upper)));
        QVERIFY(out.keys.size() <= 4 * (buckets + 2) + 8); // a break adds a run and a NaN
        // Every column keeps its extremes: the drawn line spans what every point would.
        const int begin = std::max(0, int(std::ceil(lower)) - 1);
        const int end = std::min(n, int(std::floor(upper)) + 2);
        const auto want = columns(
            std::span<const double>(keys).subspan(std::size_t(begin), std::size_t(end - begin)),
            std::span<const double>(values).subspan(std::size_t(begin), std::size_t(end - begin)),
            lower, upper, buckets);
        QCOMPARE(columns(out.keys, out.values, lower, upper, buckets), want);
        // The same entries as the walk over every point.
        QVERIFY(sameEntries(out, Decimator::m4(keys, values, lower, upper, buckets)));
    }
}

void tst_Decimator::summaryReducesARangeOnly()
{
    // A dead end is reduced apart from the line: entries [from, to) only.
    const auto keys = iota(20'000);
    auto values = noisy(20'000);
    values[15'000] = 99.0;
    MinMaxPyramid summary;
    summary.build(values);
    const Decimator::Series head{keys, values, 0, 12'000, &summary, {}};
    const auto out = Decimator::m4(head, 0.0, 19'999.0, 500);
    QCOMPARE(out.keys.back(), 11'999.0);
    QVERIFY(std::find(out.values.begin(), out.values.end(), 99.0) == out.values.end());
    const Decimator::Series tail{keys, values, 11'999, 20'000, &summary, {}};
    const auto rest = Decimator::m4(tail, 0.0, 19'999.0, 500);
    QCOMPARE(rest.keys.front(), 11'999.0);
    QVERIFY(std::find(rest.values.begin(), rest.values.end(), 99.0) != rest.values.end());
}

QTEST_GUILESS_MAIN(tst_Decimator)
#include "tst_Decimator.moc"
