#include "FragmentText.h"
#include "history/TrainingLogParser.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace ckpt;
using namespace ckpt::test;

class tst_TrainingLogParser : public QObject
{
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
    void problemsAreBadLogNamingTheLine();
    void aFileOfGarbageGivesAListAndASummary();
    void parseFileReadsAndReportsMissingFile();
};

void tst_TrainingLogParser::parse_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("segments");
    QTest::addColumn<QString>("samples");
    QTest::addColumn<QString>("problems");

    QTest::newRow("fresh run, epoch 0-based becomes 1-based")
        << QByteArray("epoch,loss,val_loss\n0,0.5,0.6\n1,0.4,0.55\n") << "S0[fresh,stated]"
        << "0:1:loss=0.5 0:1:val_loss=0.6 0:2:loss=0.4 0:2:val_loss=0.55"
        << "";
    QTest::newRow("CRLF as Python's csv module writes")
        << QByteArray("epoch,loss\r\n0,0.5\r\n1,0.25\r\n") << "S0[fresh,stated]"
        << "0:1:loss=0.5 0:2:loss=0.25"
        << "";
    QTest::newRow("NA and empty cells are skipped")
        << QByteArray("epoch,loss,val_loss\n0,0.5,NA\n1,NA,0.55\n2,,0.5\n") << "S0[fresh,stated]"
        << "0:1:loss=0.5 0:2:val_loss=0.55 0:3:val_loss=0.5"
        << "";
    QTest::newRow("nan and inf as written")
        << QByteArray("epoch,loss,val_loss\n0,nan,inf\n1,-inf,1e-05\n") << "S0[fresh,stated]"
        << "0:1:loss=nan 0:1:val_loss=inf 0:2:loss=-inf 0:2:val_loss=1e-05"
        << "";
    QTest::newRow("second header: new block with other columns, resumed")
        << QByteArray("epoch,loss\n0,0.5\n1,0.4\nepoch,loss,lr\n2,0.3,0.001\n3,0.2,0.0005\n")
        << "S0[fresh,stated] S1[2,stated]"
        << "0:1:loss=0.5 0:2:loss=0.4 1:3:loss=0.3 1:3:lr=0.001 1:4:loss=0.2 1:4:lr=0.0005"
        << "";
    QTest::newRow("second header starting at epoch 0: a fresh process")
        << QByteArray("epoch,loss\n0,0.5\n1,0.4\nepoch,loss\n0,0.6\n")
        << "S0[fresh,stated] S1[fresh,stated]"
        << "0:1:loss=0.5 0:2:loss=0.4 1:1:loss=0.6"
        << "";
    QTest::newRow("overwritten by a restart from epoch 8")
        << QByteArray("epoch,loss,val_loss\n8,0.3,0.35\n9,0.25,0.3\n") << "S0[8,stated]"
        << "0:9:loss=0.3 0:9:val_loss=0.35 0:10:loss=0.25 0:10:val_loss=0.3"
        << "";
    QTest::newRow("appended restart without header: epoch goes back")
        << QByteArray("epoch,loss\n0,0.5\n1,0.4\n2,0.3\n1,0.35\n2,0.28\n")
        << "S0[fresh,stated] S1[1,stated]"
        << "0:1:loss=0.5 0:2:loss=0.4 0:3:loss=0.3 1:2:loss=0.35 1:3:loss=0.28"
        << "";
    QTest::newRow("partial trailing line is ignored")
        << QByteArray("epoch,loss,val_loss\n0,0.5,0.6\n1,0.4,0.5") << "S0[fresh,stated]"
        << "0:1:loss=0.5 0:1:val_loss=0.6"
        << "";
    QTest::newRow("partial trailing header is ignored") << QByteArray("epoch,lo") << ""
                                                        << ""
                                                        << "";
    QTest::newRow("garbage lines are problems, parsing goes on")
        << QByteArray("epoch,loss,val_loss\n0,0.5,0.6\nhello world\n1,abc,0.5\n,,\n2,0.3,0.4\n")
        << "S0[fresh,stated]"
        << "0:1:loss=0.5 0:1:val_loss=0.6 0:2:val_loss=0.5 0:3:loss=0.3 0:3:val_loss=0.4"
        << "training.log:3 training.log:4 training.log:5";
    QTest::newRow("rows before any header")
        << QByteArray("0,0.5\nepoch,loss\n0,0.5\n") << "S0[fresh,stated]"
        << "0:1:loss=0.5"
        << "training.log:1";
    QTest::newRow("quoted list cell is not a number")
        << QByteArray("epoch,loss,per_class\n0,0.5,\"[0.1, 0.2]\"\n") << "S0[fresh,stated]"
        << "0:1:loss=0.5"
        << "training.log:2";
    QTest::newRow("BOM and blank lines") << QByteArray("\xEF\xBB\xBF"
                                                       "epoch,loss\n\n0,0.5\n\n")
                                         << "S0[fresh,stated]"
                                         << "0:1:loss=0.5"
                                         << "";
    QTest::newRow("empty file") << QByteArray() << ""
                                << ""
                                << "";
}

void tst_TrainingLogParser::parse()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, segments);
    QFETCH(QString, samples);
    QFETCH(QString, problems);

    const auto f =
        TrainingLogParser::parse(std::string_view(text.constData(), text.size()), "training.log");
    QVERIFY(f.source == MetricSource::TrainingLog);
    QCOMPARE(segmentsText(f), segments);
    QCOMPARE(samplesText(f), samples);
    QCOMPARE(problemsText(f), problems);
    for (const auto& s : f.samples)
        QVERIFY(s.sample.source == MetricSource::TrainingLog);
}

void tst_TrainingLogParser::problemsAreBadLogNamingTheLine()
{
    const auto f = TrainingLogParser::parse("epoch,loss\n0,0.5,7\n", "/runs/a/training.log");
    QCOMPARE(f.problems.size(), std::size_t(1));
    QVERIFY(f.problems[0].kind == ProblemKind::BadLog);
    QCOMPARE(f.problems[0].path, std::string("/runs/a/training.log"));
    QVERIFY2(f.problems[0].message.starts_with("/runs/a/training.log:2: expected 2 fields"),
             f.problems[0].message.c_str());
}

void tst_TrainingLogParser::aFileOfGarbageGivesAListAndASummary()
{
    std::string text = "epoch,loss\n";
    for (int i = 0; i < 80; ++i)
        text += "garbage,line,here\n";
    text += "3,0.25\n";
    const auto f = TrainingLogParser::parse(text, "training.log");
    QCOMPARE(f.problems.size(), std::size_t(51));
    QVERIFY(f.problems[49].message.starts_with("training.log:51: "));
    QCOMPARE(f.problems[50].message,
             std::string("training.log: 30 more unparseable lines not listed"));
    QCOMPARE(samplesText(f), QStringLiteral("0:4:loss=0.25"));
}

void tst_TrainingLogParser::parseFileReadsAndReportsMissingFile()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("training.log").toStdString();
    {
        std::ofstream out(path, std::ios::binary);
        out << "epoch,loss\n0,0.5\n";
    }
    const auto ok = TrainingLogParser::parseFile(path);
    QVERIFY(ok.ok());
    QCOMPARE(samplesText(*ok), QStringLiteral("0:1:loss=0.5"));
    QCOMPARE(ok->path, path);

    const auto missing = TrainingLogParser::parseFile(dir.filePath("nope.log").toStdString());
    QVERIFY(!missing.ok());
    QVERIFY(missing.error().message.find("nope.log") != std::string::npos);
}

QTEST_GUILESS_MAIN(tst_TrainingLogParser)
#include "tst_TrainingLogParser.moc"
