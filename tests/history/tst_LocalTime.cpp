#include "history/LocalTime.h"

#include <QTest>

#include <cstdlib>
#include <ctime>

using namespace ckpt;

// A save's time as the window and `ckpt scan` show it: the second its mtime
// falls in, in this machine's local time (UTC here, set for the test).
class tst_LocalTime : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void formatsTheSecondATimeFallsIn_data();
    void formatsTheSecondATimeFallsIn();
    void lastAnswerKeptNeverStale();
    void parseReadsWhatFormatWrites();
};

void tst_LocalTime::initTestCase()
{
    ::setenv("TZ", "UTC", 1);
    ::tzset();
}

void tst_LocalTime::formatsTheSecondATimeFallsIn_data()
{
    QTest::addColumn<qint64>("nanoseconds");
    QTest::addColumn<QString>("text");
    QTest::newRow("a second") << qint64(1795881820'000000000) << "2026-11-28 16:03:40";
    // As a double of seconds this rounds up to the next second; the integer does not.
    QTest::newRow("a nanosecond before the next")
        << qint64(1795881820'999999999) << "2026-11-28 16:03:40";
    QTest::newRow("the epoch") << qint64(0) << "1970-01-01 00:00:00";
    QTest::newRow("before 1970: the second it falls in") << qint64(-1) << "1969-12-31 23:59:59";
    QTest::newRow("a whole second before 1970") << qint64(-1'000000000) << "1969-12-31 23:59:59";
}

void tst_LocalTime::formatsTheSecondATimeFallsIn()
{
    QFETCH(qint64, nanoseconds);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(LocalTime::formatNanoseconds(nanoseconds)), text);
    const qint64 seconds = nanoseconds / 1'000000000 - (nanoseconds % 1'000000000 < 0 ? 1 : 0);
    QCOMPARE(QString::fromStdString(LocalTime::formatSeconds(seconds)), text);
    QCOMPARE(QString::fromStdString(LocalTime::format(double(seconds) + 0.5)), text);
}

// The per-thread answer is for the same second only: alternating seconds, and
// the zero second right after the first call, each get their own text.
void tst_LocalTime::lastAnswerKeptNeverStale()
{
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(LocalTime::formatSeconds(0), std::string("1970-01-01 00:00:00"));
        QCOMPARE(LocalTime::formatSeconds(86400), std::string("1970-01-02 00:00:00"));
        QCOMPARE(LocalTime::formatSeconds(86400), std::string("1970-01-02 00:00:00"));
    }
    QCOMPARE(LocalTime::format(std::nan("")), std::string());
}

void tst_LocalTime::parseReadsWhatFormatWrites()
{
    for (const std::int64_t s :
         {std::int64_t(0), std::int64_t(1795881820), std::int64_t(4102444799)}) {
        const auto back = LocalTime::parse(LocalTime::formatSeconds(s));
        QVERIFY(back);
        QCOMPARE(*back, double(s));
    }
}

QTEST_GUILESS_MAIN(tst_LocalTime)
#include "tst_LocalTime.moc"
