#include "report/CsvWriter.h"
#include "report/Format.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace ckpt;

class tst_Format : public QObject
{
    Q_OBJECT
private slots:
    void bytes_data();
    void bytes();
    void number_data();
    void number();
    void duration_data();
    void duration();
    void countedIsSingularForOne();
    void csvQuotesAndRawNumbers();
};

void tst_Format::bytes_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<QString>("text");
    QTest::newRow("zero") << 0.0 << "0 B";
    QTest::newRow("bytes") << 812.0 << "812 B";
    QTest::newRow("kilo") << 48100.0 << "48.1 kB";
    // The run the issue measured: one size, one unit convention (SI).
    QTest::newRow("the issue's run") << 591100.0 << "591.1 kB";
    QTest::newRow("rounds up a unit") << 999960.0 << "1.0 MB";
    QTest::newRow("mega") << 577.2e6 << "577.2 MB";
    QTest::newRow("giga") << 1.25e9 << "1.2 GB";
}

void tst_Format::bytes()
{
    QFETCH(double, bytes);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(Format::bytes(bytes)), text);
}

void tst_Format::number_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("plain") << 0.5 << "0.5";
    QTest::newRow("six digits") << 0.123456789 << "0.123457";
    QTest::newRow("small") << 1e-5 << "1e-05";
    QTest::newRow("nan") << std::nan("") << "NaN";
    QTest::newRow("inf") << std::numeric_limits<double>::infinity() << "inf";
    QTest::newRow("-inf") << -std::numeric_limits<double>::infinity() << "-inf";
}

void tst_Format::number()
{
    QFETCH(double, value);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(Format::number(value)), text);
}

void tst_Format::duration_data()
{
    QTest::addColumn<double>("seconds");
    QTest::addColumn<QString>("text");
    QTest::newRow("ms") << 0.026 << "26 ms";
    QTest::newRow("s") << 4.24 << "4.2 s";
    QTest::newRow("m:ss") << 187.0 << "3:07";
    QTest::newRow("h:mm:ss") << 3727.0 << "1:02:07";
    QTest::newRow("negative") << -0.5 << "-500 ms";
}

void tst_Format::duration()
{
    QFETCH(double, seconds);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(Format::duration(seconds)), text);
}

// The sidebar said "1 runs" and the status bar "5 run(s)".
void tst_Format::countedIsSingularForOne()
{
    QCOMPARE(Format::counted(1, "run"), std::string("1 run"));
    QCOMPARE(Format::counted(0, "run"), std::string("0 runs"));
    QCOMPARE(Format::counted(5, "run"), std::string("5 runs"));
}

void tst_Format::csvQuotesAndRawNumbers()
{
    CsvWriter csv;
    csv.addRow({"run", "loss", "note"});
    csv.addRow({"EXP000/RUN,1", CsvWriter::number(0.1), "say \"hi\""});
    csv.addRow({"r", CsvWriter::number(std::nullopt), CsvWriter::number(std::nan(""))});
    QCOMPARE(QString::fromStdString(csv.text()),
             QStringLiteral("run,loss,note\n\"EXP000/RUN,1\",0.1,\"say \"\"hi\"\"\"\nr,,nan\n"));
}

QTEST_GUILESS_MAIN(tst_Format)
#include "tst_Format.moc"
