#include "FragmentText.h"
#include "history/HistoryTxtParser.h"

#include <QRegularExpression>
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
    QTest::newRow("null entries skipped, their index counts")
        << QByteArray(R"({"lr": [0.001, null, 0.0005]})") << "0:1:lr=0.001 0:3:lr=0.0005"
        << "";
    QTest::newRow("keys that are not lists are ignored")
        << QByteArray(
               R"({"params": {"epochs": 3, "x": [1]}, "name": "nt3", "ok": true, "loss": [2, "x"]})")
        << "0:1:loss=2"
        << "";
    QTest::newRow("pretty-printed over lines")
        << QByteArray("{\n  \"loss\": [\n    0.5,\n    0.25\n  ]\n}\n")
        << "0:1:loss=0.5 0:2:loss=0.25"
        << "";
    QTest::newRow("empty dict and empty lists") << QByteArray(R"({"loss": []})") << ""
                                                << "";
    QTest::newRow("truncated") << QByteArray(R"({"loss": [0.5, 0.4], "val_loss": [0.6, )") << ""
                               << "history.txt: * at 1:40 (truncated?)";
    QTest::newRow("not JSON") << QByteArray("hello") << ""
                              << "history.txt: * at 1:1*";
    QTest::newRow("bad token on line 2") << QByteArray("{\"loss\": [0.5,\n oops]}") << ""
                                         << "history.txt: * at 2:2*";
    QTest::newRow("a list, not a dict") << QByteArray("[0.5, 0.4]") << ""
                                        << "history.txt: expected a dict of lists, found array";
    QTest::newRow("empty file") << QByteArray("") << ""
                                << "history.txt: file is empty";
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
    // `problems`: the one expected message, '*' standing for any text.
    QCOMPARE(f.problems.size(), std::size_t(problems.isEmpty() ? 0 : 1));
    for (const auto& p : f.problems) {
        QVERIFY(p.kind == ProblemKind::BadLog);
        const QString message = QString::fromStdString(p.message);
        const QRegularExpression pattern(QRegularExpression::wildcardToRegularExpression(problems));
        QVERIFY2(pattern.match(message).hasMatch(), qPrintable(message));
    }
}

void tst_HistoryTxtParser::syntaxErrorNamesLineAndColumn()
{
    const auto f = HistoryTxtParser::parse("{\"loss\": [0.5 0.4]}", "/r/history.txt");
    QCOMPARE(f.problems.size(), std::size_t(1));
    QCOMPARE(f.problems[0].path, std::string("/r/history.txt"));
    QVERIFY2(f.problems[0].message.starts_with("/r/history.txt: ") &&
                 f.problems[0].message.find(" at 1:15") != std::string::npos,
             f.problems[0].message.c_str());
    QVERIFY(f.samples.empty());
}

QTEST_GUILESS_MAIN(tst_HistoryTxtParser)
#include "tst_HistoryTxtParser.moc"
