#include "plot/DebiasedEma.h"

#include <QTest>

#include <cmath>
#include <limits>

using ckpt::DebiasedEma;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool same(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b))
        return a == b;
    return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b));
}
} // namespace

class tst_DebiasedEma : public QObject
{
    Q_OBJECT

private slots:
    void smooth_data();
    void smooth();
    void firstValueIsUnbiased();
    void constantSeriesStaysExact();
    void stateContinuesLikeOneSeries();
};

void tst_DebiasedEma::smooth_data()
{
    QTest::addColumn<double>("weight");
    QTest::addColumn<QList<double>>("input");
    QTest::addColumn<QList<double>>("expected");

    // Hand-computed: ema_n = w ema_{n-1} + (1-w) x_n from 0, shown as ema_n / (1 - w^n).
    QTest::newRow("off") << 0.0 << QList<double>{1, 2, 3} << QList<double>{1, 2, 3};
    // 0.5, then 0.25 + 1.5 = 1.75 over 0.75
    QTest::newRow("half") << 0.5 << QList<double>{1, 3} << QList<double>{1, 7.0 / 3.0};
    // 1, then 0.9 over 0.19
    QTest::newRow("0.9 drop") << 0.9 << QList<double>{10, 0} << QList<double>{10, 0.9 / 0.19};
    // n counts finite values only: the NaN neither enters the average nor the correction.
    QTest::newRow("nan passes through")
        << 0.5 << QList<double>{2, kNaN, 4} << QList<double>{2, kNaN, 2.5 / 0.75};
    QTest::newRow("inf passes through")
        << 0.5 << QList<double>{1, kInf, 3} << QList<double>{1, kInf, 7.0 / 3.0};
    QTest::newRow("leading nan") << 0.5 << QList<double>{kNaN, 5, 5, 1}
                                 << QList<double>{kNaN, 5, 5, (0.5 * 3.75 + 0.5) / 0.875};
    // Above the maximum the weight is clamped to 0.999: 1, then (0.999 + 0.001 * 3) / (1 - 0.999^2)
    QTest::newRow("clamped weight")
        << 1.5 << QList<double>{1, 3}
        << QList<double>{1, (0.999 * 0.001 + 0.001 * 3) / (1 - 0.998001)};
    QTest::newRow("negative weight is off") << -0.3 << QList<double>{4, 8} << QList<double>{4, 8};
}

void tst_DebiasedEma::smooth()
{
    QFETCH(double, weight);
    QFETCH(QList<double>, input);
    QFETCH(QList<double>, expected);
    const std::vector<double> values(input.begin(), input.end());
    const auto out = DebiasedEma::smooth(values, weight);
    QCOMPARE(out.size(), values.size());
    for (std::size_t i = 0; i < out.size(); ++i)
        QVERIFY2(same(out[i], expected[qsizetype(i)]),
                 qPrintable(QStringLiteral("entry %1: %2, expected %3")
                                .arg(i)
                                .arg(out[i], 0, 'g', 17)
                                .arg(expected[qsizetype(i)], 0, 'g', 17)));
}

void tst_DebiasedEma::firstValueIsUnbiased()
{
    // Without the correction the first value would be (1 - w) x, i.e. 0.035 here.
    for (double w : {0.1, 0.6, 0.99, 0.999}) {
        DebiasedEma ema(w);
        QVERIFY(same(ema.add(3.5), 3.5));
    }
}

void tst_DebiasedEma::constantSeriesStaysExact()
{
    const std::vector<double> flat(50, 0.1);
    const auto out = DebiasedEma::smooth(flat, 0.95);
    for (double v : out)
        QCOMPARE(v, 0.1); // exact, no rounding noise
    QVERIFY(std::isnan(DebiasedEma(0.5).value()));
}

void tst_DebiasedEma::stateContinuesLikeOneSeries()
{
    DebiasedEma a(0.7);
    a.add(1.0);
    a.add(4.0);
    DebiasedEma b = a; // a branch continuing from here
    QVERIFY(same(b.add(2.0), a.add(2.0)));
    QCOMPARE(b.count(), 3);
    const auto whole = DebiasedEma::smooth(std::vector<double>{1.0, 4.0, 2.0}, 0.7);
    QVERIFY(same(whole.back(), b.value()));
}

QTEST_GUILESS_MAIN(tst_DebiasedEma)
#include "tst_DebiasedEma.moc"
