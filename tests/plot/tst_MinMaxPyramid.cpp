#include "plot/MinMaxPyramid.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace ckpt;

namespace {
std::vector<double> noisy(int n, unsigned seed, int nanEvery)
{
    std::mt19937 random(seed);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    std::vector<double> v(std::size_t(n), 0.0);
    for (int i = 0; i < n; ++i)
        v[std::size_t(i)] = nanEvery > 0 && i % nanEvery == 3
                                ? std::numeric_limits<double>::quiet_NaN()
                                : value(random);
    return v;
}

// Walks the range: what the pyramid must answer.
std::pair<double, double> bruteForce(const std::vector<double>& v, int begin, int end)
{
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    for (int i = begin; i < end; ++i)
        if (!std::isnan(v[std::size_t(i)])) {
            low = std::min(low, v[std::size_t(i)]);
            high = std::max(high, v[std::size_t(i)]);
        }
    return {low, high};
}
} // namespace

class tst_MinMaxPyramid : public QObject
{
    Q_OBJECT

private slots:
    void extremesOfAnyRange_data();
    void extremesOfAnyRange();
    void appendingEqualsBuilding();
    void allNanHasNoExtremes();
};

void tst_MinMaxPyramid::extremesOfAnyRange_data()
{
    QTest::addColumn<int>("size");
    QTest::addColumn<int>("nanEvery");
    QTest::newRow("one entry") << 1 << 0;
    QTest::newRow("one block and a bit") << 17 << 0;
    QTest::newRow("three levels") << 5000 << 0;
    QTest::newRow("1e5 with breaks") << 100'000 << 97;
    QTest::newRow("every other entry a break") << 4099 << 2;
}

void tst_MinMaxPyramid::extremesOfAnyRange()
{
    QFETCH(int, size);
    QFETCH(int, nanEvery);
    const auto values = noisy(size, 7, nanEvery);
    MinMaxPyramid pyramid;
    pyramid.build(values);
    QCOMPARE(pyramid.size(), size);
    std::mt19937 random(11);
    for (int trial = 0; trial < 2000; ++trial) {
        int begin = int(random() % unsigned(size));
        int end = int(random() % unsigned(size + 1));
        if (begin > end)
            std::swap(begin, end);
        const auto e = pyramid.extremes(values, begin, end);
        const auto [low, high] = bruteForce(values, begin, end);
        if (std::isinf(low)) {
            QCOMPARE(e.min, -1);
            continue;
        }
        QVERIFY(e.min >= begin && e.min < end);
        QVERIFY(e.max >= begin && e.max < end);
        QCOMPARE(values[std::size_t(e.min)], low);
        QCOMPARE(values[std::size_t(e.max)], high);
    }
}

void tst_MinMaxPyramid::appendingEqualsBuilding()
{
    const auto values = noisy(70'000, 3, 501);
    MinMaxPyramid built;
    built.build(values);
    MinMaxPyramid grown;
    for (std::size_t n = 1; n <= values.size(); n += 1 + n / 3) // uneven batches
        grown.append(std::span<const double>(values.data(), n));
    grown.append(values);
    QCOMPARE(grown.size(), built.size());
    for (const auto& [begin, end] :
         {std::pair{0, 70'000}, {5, 17}, {4095, 65'537}, {69'999, 70'000}}) {
        const auto a = built.extremes(values, begin, end);
        const auto b = grown.extremes(values, begin, end);
        QCOMPARE(values[std::size_t(b.min)], values[std::size_t(a.min)]);
        QCOMPARE(values[std::size_t(b.max)], values[std::size_t(a.max)]);
    }
}

void tst_MinMaxPyramid::allNanHasNoExtremes()
{
    const std::vector<double> values(100, std::numeric_limits<double>::quiet_NaN());
    MinMaxPyramid pyramid;
    pyramid.build(values);
    QCOMPARE(pyramid.extremes(values, 0, 100).min, -1);
    QCOMPARE(pyramid.extremes(values, 10, 10).max, -1);
}

QTEST_GUILESS_MAIN(tst_MinMaxPyramid)
#include "tst_MinMaxPyramid.moc"
