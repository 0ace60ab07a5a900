#include "H5Writer.h"
#include "hdf5/TensorHistogram.h"

#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <cmath>
#include <limits>

using namespace ckpt;
using ckpt::test::H5Writer;

using Counts = std::vector<std::uint64_t>;
Q_DECLARE_METATYPE(std::vector<double>)
Q_DECLARE_METATYPE(Counts)

class tst_TensorHistogram : public QObject
{
    Q_OBJECT
private slots:
    void binsByHand_data();
    void binsByHand();
    void constantTensorSitsInTheMiddle();
    void allNonFiniteHasNoBins();
    void ofDatasetStreamsBothPasses();
    void ofPairSharesBins();
    void cancelStops();
    void missingDatasetNamesIt();
    void autoBins_data();
    void autoBins();

private:
    QTemporaryDir m_dir;
};

void tst_TensorHistogram::binsByHand_data()
{
    QTest::addColumn<std::vector<double>>("values");
    QTest::addColumn<double>("lo");
    QTest::addColumn<double>("hi");
    QTest::addColumn<int>("bins");
    QTest::addColumn<Counts>("counts");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    // [0,4) in 4 bins of width 1; 4 (the max) goes into the last bin.
    QTest::newRow("unit bins") << std::vector<double>{0, 0.5, 1, 1.99, 2, 3.5, 4} << 0.0 << 4.0 << 4
                               << Counts{2, 2, 1, 2};
    QTest::newRow("negative range")
        << std::vector<double>{-1, -0.75, -0.5, 0, 1} << -1.0 << 1.0 << 2 << Counts{3, 2};
    QTest::newRow("nan and inf left out")
        << std::vector<double>{nan, 1, inf, -inf, 2} << 1.0 << 2.0 << 2 << Counts{1, 1};
    QTest::newRow("outside the range ignored")
        << std::vector<double>{-5, 0.1, 0.9, 7} << 0.0 << 1.0 << 2 << Counts{1, 1};
}

void tst_TensorHistogram::binsByHand()
{
    QFETCH(std::vector<double>, values);
    QFETCH(double, lo);
    QFETCH(double, hi);
    QFETCH(int, bins);
    QFETCH(Counts, counts);
    Histogram h = TensorHistogram::empty(lo, hi, bins);
    // In two blocks, as the stream delivers them.
    TensorHistogram::add(h, values.data(), values.size() / 2);
    TensorHistogram::add(h, values.data() + values.size() / 2, values.size() - values.size() / 2);
    QCOMPARE(h.counts, counts);
    QCOMPARE(h.lo, lo);
    QCOMPARE(h.hi, hi);
    std::uint64_t nonFinite = 0;
    for (double v : values)
        nonFinite += std::isfinite(v) ? 0 : 1;
    QCOMPARE(h.nan + h.inf, nonFinite);
    QCOMPARE(h.finite, values.size() - nonFinite);
}

void tst_TensorHistogram::constantTensorSitsInTheMiddle()
{
    Histogram h = TensorHistogram::empty(3.0, 3.0, 4);
    QCOMPARE(h.lo, 2.5);
    QCOMPARE(h.hi, 3.5);
    const double v[] = {3.0, 3.0, 3.0};
    TensorHistogram::add(h, v, 3);
    QCOMPARE(h.counts, (Counts{0, 0, 3, 0}));
    QCOMPARE(h.binCenter(2), 3.125);
}

void tst_TensorHistogram::allNonFiniteHasNoBins()
{
    Histogram h = TensorHistogram::empty(std::nan(""), std::nan(""), 8);
    QCOMPARE(h.bins(), 0);
    const double v[] = {std::nan(""), std::numeric_limits<double>::infinity()};
    TensorHistogram::add(h, v, 2);
    QCOMPARE(h.nan, 1u);
    QCOMPARE(h.inf, 1u);
}

void tst_TensorHistogram::ofDatasetStreamsBothPasses()
{
    // 0..999 in 10 bins: 100 per bin, with a NaN that must not move the range.
    std::vector<float> v(1000);
    for (int i = 0; i < 1000; ++i)
        v[std::size_t(i)] = float(i);
    v[500] = std::numeric_limits<float>::quiet_NaN();
    const std::string file = m_dir.filePath("one.h5").toStdString();
    {
        H5Writer w(file);
        w.floats("/g/t", {10, 100}, v);
    }
    std::uint64_t lastDone = 0, lastTotal = 0;
    int reports = 0;
    const Progress progress([&](const ProgressUpdate& u) {
        QVERIFY(u.done >= lastDone);
        lastDone = u.done;
        lastTotal = u.total;
        ++reports;
    });
    auto t = TensorHistogram::ofDataset(file, "g/t", 10, progress);
    QVERIFY2(t, t ? "" : t.error().message.c_str());
    QCOMPARE(t->path, std::string("/g/t"));
    QCOMPARE(t->stats.count, 1000u);
    QCOMPARE(t->stats.nan, 1u);
    QCOMPARE(t->stats.min, 0.0);
    QCOMPARE(t->stats.max, 999.0);
    QCOMPARE(t->histogram.lo, 0.0);
    QCOMPARE(t->histogram.hi, 999.0);
    Counts expected(10, 100);
    expected[5] = 99; // the NaN replaced 500
    // Bin width 99.9: 99.9*k boundaries move 0..999 by at most one per bin.
    Counts byHand(10, 0);
    for (int i = 0; i < 1000; ++i) {
        if (i == 500)
            continue;
        byHand[std::size_t(std::min(9, int(i / 99.9)))]++;
    }
    QCOMPARE(t->histogram.counts, byHand);
    QCOMPARE(t->histogram.nan, 1u);
    QVERIFY(reports >= 2);
    QCOMPARE(lastTotal, 2u * 1000u * 4u);
    QCOMPARE(lastDone, lastTotal);
}

void tst_TensorHistogram::ofPairSharesBins()
{
    const std::string a = m_dir.filePath("a.h5").toStdString();
    const std::string b = m_dir.filePath("b.h5").toStdString();
    {
        H5Writer w(a);
        w.floats("/w", {4}, {0, 1, 2, 3});
    }
    {
        H5Writer w(b);
        w.floats("/w", {4}, {2, 4, 6, 8});
    }
    auto pair = TensorHistogram::ofPair(a, "/w", b, "/w", 4);
    QVERIFY2(pair, pair ? "" : pair.error().message.c_str());
    const Histogram& ha = pair->first.histogram;
    const Histogram& hb = pair->second.histogram;
    QCOMPARE(ha.lo, 0.0);
    QCOMPARE(ha.hi, 8.0);
    QCOMPARE(hb.lo, ha.lo);
    QCOMPARE(hb.hi, ha.hi);
    QCOMPARE(ha.counts, (Counts{2, 2, 0, 0}));
    QCOMPARE(hb.counts, (Counts{0, 1, 1, 2})); // 8, the max, closes the last bin
}

void tst_TensorHistogram::cancelStops()
{
    const std::string file = m_dir.filePath("cancel.h5").toStdString();
    {
        H5Writer w(file);
        w.floats("/t", {4}, {1, 2, 3, 4});
    }
    std::atomic_bool cancel{true};
    auto t = TensorHistogram::ofDataset(file, "/t", 4, Progress({}, &cancel));
    QVERIFY(!t);
    QVERIFY(t.error().message.find("cancelled") != std::string::npos);
}

void tst_TensorHistogram::missingDatasetNamesIt()
{
    const std::string file = m_dir.filePath("missing.h5").toStdString();
    {
        H5Writer w(file);
        w.floats("/t", {1}, {1});
    }
    auto t = TensorHistogram::ofDataset(file, "/nope");
    QVERIFY(!t);
    QVERIFY(t.error().message.find("/nope") != std::string::npos);
    QVERIFY(t.error().message.find(file) != std::string::npos);
}

void tst_TensorHistogram::autoBins_data()
{
    QTest::addColumn<qulonglong>("elements");
    QTest::addColumn<int>("bins");
    QTest::newRow("empty") << 0ull << 8;
    QTest::newRow("bias") << 12ull << 8;
    QTest::newRow("400") << 400ull << 20;
    QTest::newRow("1000") << 1000ull << 32;
    QTest::newRow("huge") << 1000000ull << 128;
}

void tst_TensorHistogram::autoBins()
{
    QFETCH(qulonglong, elements);
    QFETCH(int, bins);
    QCOMPARE(TensorHistogram::autoBins(elements), bins);
    if (elements == 0 || elements > 10000)
        return;
    const std::string file =
        m_dir.filePath(QStringLiteral("auto%1.h5").arg(elements)).toStdString();
    {
        H5Writer w(file);
        w.floats("/t", {elements}, std::vector<float>(elements, 1.0f));
    }
    auto t = TensorHistogram::ofDataset(file, "/t", TensorHistogram::kAutoBins);
    QVERIFY(t);
    QCOMPARE(t->histogram.bins(), bins);
}

QTEST_GUILESS_MAIN(tst_TensorHistogram)
#include "tst_TensorHistogram.moc"
