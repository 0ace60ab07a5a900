#include "ops/KeepPolicy.h"

#include <QStringList>
#include <QTest>

#include <numeric>

using namespace ckpt;

namespace {

std::vector<int> range(int from, int to)
{
    std::vector<int> v(static_cast<std::size_t>(to - from + 1));
    std::iota(v.begin(), v.end(), from);
    return v;
}

QString str(const std::vector<int>& v)
{
    QStringList parts;
    for (int e : v)
        parts << QString::number(e);
    return parts.join(',');
}

std::vector<int> without(std::vector<int> v, const std::set<int>& drop)
{
    std::erase_if(v, [&](int e) { return drop.count(e) > 0; });
    return v;
}

} // namespace

Q_DECLARE_METATYPE(std::vector<int>)
Q_DECLARE_METATYPE(std::set<int>)
Q_DECLARE_METATYPE(ckpt::KeepMode)

class tst_KeepPolicy : public QObject
{
    Q_OBJECT

private slots:
    void toDelete_data()
    {
        QTest::addColumn<KeepMode>("mode");
        QTest::addColumn<int>("limit");
        QTest::addColumn<std::vector<int>>("epochs");
        QTest::addColumn<std::set<int>>("protectedEpochs");
        QTest::addColumn<std::vector<int>>("expected");

        const auto L = KeepMode::Linear;
        const auto X = KeepMode::Exponential;
        // Linear rows follow CANDLE's clean() by hand: walking newest first, keep
        // when protected or kept-so-far < limit, every kept epoch counting.
        QTest::newRow("linear: best outside the window") // keeps 10 9 8, 5
            << L << 3 << range(1, 10) << std::set<int>{10, 5} << std::vector<int>{1, 2, 3, 4, 6, 7};
        QTest::newRow("linear: best inside the window counts") // keeps 10 9 8
            << L << 3 << range(1, 10) << std::set<int>{10, 9} << range(1, 7);
        QTest::newRow("linear: rolled-back last is kept")
            << L << 2 << range(1, 8) << std::set<int>{8, 4, 3} << std::vector<int>{1, 2, 5, 6};
        QTest::newRow("linear: limit 0 keeps only the protected")
            << L << 0 << range(1, 10) << std::set<int>{10} << range(1, 9);
        QTest::newRow("linear: negative limit is 0")
            << L << -3 << range(1, 4) << std::set<int>{4} << range(1, 3);
        QTest::newRow("linear: limit above the count keeps all")
            << L << 50 << range(1, 10) << std::set<int>{10} << std::vector<int>{};
        QTest::newRow("linear: sparse history") << L << 2 << std::vector<int>{2, 5, 9, 14}
                                                << std::set<int>{14} << std::vector<int>{2, 5};
        QTest::newRow("linear: unsorted input") << L << 2 << std::vector<int>{9, 2, 14, 5}
                                                << std::set<int>{14} << std::vector<int>{2, 5};
        QTest::newRow("linear: 4-digit epochs sort numerically")
            << L << 2 << std::vector<int>{998, 999, 1000, 1001, 1002} << std::set<int>{1002}
            << std::vector<int>{998, 999, 1000};
        QTest::newRow("linear: no epochs")
            << L << 2 << std::vector<int>{} << std::set<int>{} << std::vector<int>{};

        QTest::newRow("exponential: N, N-1, N-2, N-4, N-8") // keeps 20 19 18 16 12
            << X << 5 << range(1, 20) << std::set<int>{20}
            << without(range(1, 20), {20, 19, 18, 16, 12});
        QTest::newRow("exponential: newest kept unprotected")
            << X << 1 << range(1, 10) << std::set<int>{} << range(1, 9);
        QTest::newRow("exponential: sparse picks the newest at or before")
            << X << 4 << std::vector<int>{1, 2, 3, 10} << std::set<int>{}
            << std::vector<int>{1}; // 10, <=9: 3, <=8: 3, <=6: 3, <=2: 2
        QTest::newRow("exponential: protected old epoch is extra")
            << X << 3 << range(1, 20) << std::set<int>{20, 5}
            << without(range(1, 20), {20, 19, 18, 5});
        QTest::newRow("exponential: protected pick counts")
            << X << 3 << range(1, 20) << std::set<int>{20, 19} << range(1, 17);
        QTest::newRow("exponential: limit 0 keeps only the protected")
            << X << 0 << range(1, 20) << std::set<int>{20} << range(1, 19);
        QTest::newRow("exponential: limit beyond the doublings")
            << X << 100 << range(1, 9) << std::set<int>{}
            << std::vector<int>{2, 3, 4, 6}; // 9, 8, 7, 5, 1
    }

    void toDelete()
    {
        QFETCH(KeepMode, mode);
        QFETCH(int, limit);
        QFETCH(std::vector<int>, epochs);
        QFETCH(std::set<int>, protectedEpochs);
        QFETCH(std::vector<int>, expected);
        const KeepPolicy policy{mode, limit};
        const auto got = policy.toDelete(epochs, protectedEpochs);
        QCOMPARE(str(got), str(expected));
        for (int e : got)
            QVERIFY2(!protectedEpochs.count(e), "a protected epoch was marked for deletion");
    }

    void modeNames()
    {
        QCOMPARE(keepModeFromString("linear"), std::optional<KeepMode>(KeepMode::Linear));
        QCOMPARE(keepModeFromString("exponential"), std::optional<KeepMode>(KeepMode::Exponential));
        QCOMPARE(keepModeFromString("Linear"), std::nullopt);
        QCOMPARE(toString(KeepMode::Linear), std::string_view("linear"));
        QCOMPARE(toString(KeepMode::Exponential), std::string_view("exponential"));
    }
};

QTEST_GUILESS_MAIN(tst_KeepPolicy)
#include "tst_KeepPolicy.moc"
