#include "FragmentText.h"
#include "history/HistoryTxtParser.h"

#include <QTest>

using namespace ckpt;
using namespace ckpt::test;

class tst_HistoryTxtParser : public QObject
{
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
    void syntaxErrorNamesLineAndColumn();
};

void tst_HistoryTxtParser::parse_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("samples");
    QTest::addColumn<QString>("problems");

    QTest::newRow("json dict of lists, index i is epoch i+1")
        << QByteArray(R"({"loss": [0.5, 0.4], "val_loss": [0.6, 0.55]})")
        << "0:1:loss=0.5 0:2:loss=0.4 0:1:val_loss=0.6 0:2:val_loss=0.55"
        << "";
    QTest::newRow("Python's bare NaN and Infinity")
        << QByteArray(R"({"loss": [NaN, Infinity, -Infinity, 1e-05]})")
        << "0:1:loss=nan 0:2:loss=inf 0:3:loss=-inf 0:4:loss=1e-05"
        << "";
    QTest::newRow("repr() text: single quotes, nan/inf, None, numpy wrappers")
        << QByteArray("{'loss': [0.5, inf, nan], 'lr': [np.float64(0.001), None, 0.0005],}")
        << "0:1:loss=0.5 0:2:loss=inf 0:3:loss=nan 0:1:lr=0.001 0:3:lr=0.0005"
        << "";
    QTest::newRow("keys that are not lists are ignored")
        << QByteArray(
               R"({"params": {"epochs": 3, "x": [1]}, "name": "nt3", "ok": true, "loss": [2]})")
        << "0:1:loss=2"
        << "";
    QTest::newRow("pretty-printed over lines")
        << QByteArray("{\n  \"loss\": [\n    0.5,\n    0.25\n  ]\n}\n")
        << "0:1:loss=0.5 0:2:loss=0.25"
        << "";
    QTest::newRow("empty dict and empty lists") << QByteArray(R"({"loss": []})") << ""
                                                << "";
    QTest::newRow("truncated: complete lists kept")
        << QByteArray(R"({"loss": [0.5, 0.4], "val_loss": [0.6, )") << "0:1:loss=0.5 0:2:loss=0.4"
        << "history.txt:1:40";
    QTest::newRow("not a dict") << QByteArray("hello") << ""
                                << "history.txt:1:1";
    QTest::newRow("bad token in a list") << QByteArray("{\"loss\": [0.5,\n oops]}") << ""
                                         << "history.txt:2:2";
}

void tst_HistoryTxtParser::parse()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, samples);
    QFETCH(QString, problems);

    const auto f =
        HistoryTxtParser::parse(std::string_view(text.constData(), text.size()), "history.txt");
    QVERIFY(f.source == MetricSource::HistoryTxt);
    QCOMPARE(f.segments.size(), std::size_t(1));
    QCOMPARE(f.segments[0].evidence, ResumeEvidence::Unknown);
    QCOMPARE(samplesText(f), samples);
    QCOMPARE(problemsText(f), problems);
    for (const auto& p : f.problems)
        QVERIFY(p.kind == ProblemKind::BadLog);
}

void tst_HistoryTxtParser::syntaxErrorNamesLineAndColumn()
{
    const auto f = HistoryTxtParser::parse("{\"loss\": [0.5 0.4]}", "/r/history.txt");
    QCOMPARE(f.problems.size(), std::size_t(1));
    QCOMPARE(f.problems[0].path, std::string("/r/history.txt"));
    QCOMPARE(f.problems[0].message,
             std::string("/r/history.txt:1:15: expected ',' or ']' in a list"));
}

QTEST_GUILESS_MAIN(tst_HistoryTxtParser)
#include "tst_HistoryTxtParser.moc"
