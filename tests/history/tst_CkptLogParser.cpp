#include "FragmentText.h"
#include "history/CkptLogParser.h"

#include <QDateTime>
#include <QTest>

using namespace ckpt;
using namespace ckpt::test;

class tst_CkptLogParser : public QObject
{
    Q_OBJECT

private slots:
    void parse_data();
    void parse();
    void wallTimesAndSegmentStarts();
    void garbageNamesFileAndLine();
};

namespace {
// One ckpt.log line at 13:MM:SS of the fixture day.
QByteArray at(int minute, int second, const char* tag, const char* message)
{
    return QStringLiteral("2026-11-22 13:%1:%2,250 %3: %4\n")
        .arg(minute, 2, 10, QLatin1Char('0'))
        .arg(second, 2, 10, QLatin1Char('0'))
        .arg(QLatin1String(tag), QLatin1String(message))
        .toUtf8();
}
} // namespace

void tst_CkptLogParser::parse_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("segments");
    QTest::addColumn<QString>("samples");
    QTest::addColumn<QString>("problems");

    const char* C = "CandleCheckpoint";
    const char* K = "CandleCkpt";
    const char* R = "CANDLE restart()";

    QTest::newRow("fresh process: first metrics line is epoch 1")
        << at(0, 0, C, "Callback initialized.") + at(0, 1, C, "save_best_metric='val_loss'") +
               at(0, 2, C, "PWD: /scratch/run") +
               at(1, 0, C, "metrics: val_loss: current=0.700000 < last=inf") +
               at(1, 1, C, "writing model to: 'save/ckpts/work/model.h5'") +
               at(1, 2, C, "model wrote: 1.000 MB in 0.500 seconds (2.00 MB/s).") +
               at(1, 3, C, "rename:  'save/ckpts/work' -> 'save/ckpts/epochs/001'") +
               at(1, 4, C, "linking: 'save/ckpts/best' -> 'save/ckpts/epochs/001'") +
               at(2, 0, C, "metrics: val_loss: current=0.750000 > last=0.700000") +
               at(2, 1, C, "not writing this epoch.") +
               at(3, 0, C, "metrics: val_loss: current=0.600000 < last=0.700000")
        << "S0[fresh,stated]"
        << "0:1:val_loss=0.7 0:1:write_mb_s=2 0:2:val_loss=0.75 0:3:val_loss=0.6"
        << "";

    QTest::newRow("candle_lib: restart lines after Callback initialized, JSON dump")
        << at(0, 0, K, "save_interval: 1") + at(0, 0, K, "Callback initialized.") +
               at(1, 0, K, "metrics: val_loss: current=0.700000 < last=inf") +
               at(2, 0, K, "metrics: val_loss: current=0.650000 < last=0.700000") +
               at(3, 0, K, "metrics: val_loss: current=0.640000 < last=0.650000") +
               at(10, 0, K, "save_interval: 1") + at(10, 0, K, "Callback initialized.") +
               at(10, 1, K, "restarting: 'save/ckpts/last/model.h5'") +
               at(10, 1, K, "ckpt-info.json contains:") +
               "{\n  \"epoch\": 2,\n  \"best_metric_last\": 0.65,\n  \"metadata\": null\n}\n" +
               at(10, 2, K, "restarting from epoch: 2") +
               at(10, 2, K, "restarting: epoch=2 timestamp=2026-11-22 13:02:00") +
               at(11, 0, K, "metrics: val_loss: current=0.630000 < last=0.650000") +
               at(12, 0, K, "metrics: val_loss: current=0.620000 < last=0.630000")
        << "S0[fresh,stated] S1[2,stated]"
        << "0:1:val_loss=0.7 0:2:val_loss=0.65 0:3:val_loss=0.64 1:3:val_loss=0.63 "
           "1:4:val_loss=0.62"
        << "";

    QTest::newRow("oldest writer: CANDLE restart() lines open the next process")
        << at(0, 0, C, "Callback initialized.") +
               at(1, 0, C, "metrics: val_loss: current=0.700000 < last=inf") +
               at(2, 0, C, "metrics: val_loss: current=0.650000 < last=0.700000") +
               at(3, 0, C, "metrics: val_loss: current=0.660000 > last=0.650000") +
               at(10, 0, R, "restarting: save/ckpts/last/model.h5") +
               at(10, 0, R, "ckpt-info.json contains:") + "{\n  \"epoch\": 2\n}\n" +
               at(10, 1, R, "restarting: epoch=2 timestamp=2026-11-22 13:02:00") +
               at(10, 2, R, "model read:  1.000 MB in 0.100 seconds (10.00 MB/s).") +
               at(10, 3, C, "Callback initialized.") +
               at(11, 0, C, "metrics: val_loss: current=0.610000 < last=0.650000")
        << "S0[fresh,stated] S1[2,stated]"
        << "0:1:val_loss=0.7 0:2:val_loss=0.65 0:3:val_loss=0.66 1:3:val_loss=0.61"
        << "";

    QTest::newRow("three processes, the second crashed before any epoch")
        << at(0, 0, K, "Callback initialized.") +
               at(1, 0, K, "metrics: loss: current=0.900000 < last=inf") +
               at(5, 0, K, "Callback initialized.") + at(5, 1, K, "restarting from epoch: 1") +
               at(6, 0, K, "Callback initialized.") + at(6, 1, K, "restarting from epoch: 1") +
               at(7, 0, K, "metrics: loss: current=0.800000 < last=0.900000")
        << "S0[fresh,stated] S1[1,stated] S2[1,stated]"
        << "0:1:loss=0.9 2:2:loss=0.8"
        << "";

    QTest::newRow("ckpt_skip_epochs: disabled-saving lines count as epochs")
        << at(0, 0, K, "Callback initialized.") +
               at(1, 0, K, "model saving disabled until epoch 3") +
               at(2, 0, K, "model saving disabled until epoch 3") +
               at(3, 0, K, "metrics: val_loss: current=0.500000 < last=inf")
        << "S0[fresh,stated]"
        << "0:3:val_loss=0.5"
        << "";

    QTest::newRow("save_best off: epochs counted by saves and skips")
        << at(0, 0, K, "Callback initialized.") +
               at(1, 0, K, "writing model to: 'save/ckpts/work/model.h5'") +
               at(1, 1, K, "model wrote: 2.000 MB in 1.000 seconds (2.00 MB/s).") +
               at(1, 2, K, "rename:  'save/ckpts/work' -> 'save/ckpts/epochs/001'") +
               at(2, 0, K, "not writing this epoch.") + at(3, 0, K, "writing final epoch 3 ...") +
               at(3, 1, K, "writing model to: 'save/ckpts/work/model.h5'") +
               at(3, 2, K, "model wrote: 2.000 MB in 0.500 seconds (4.00 MB/s).")
        << "S0[fresh,stated]"
        << "0:1:write_mb_s=2 0:3:write_mb_s=4"
        << "";

    QTest::newRow("log cut at the front: the epoch named by rename numbers it")
        << at(0, 0, C, "metrics: val_loss: current=0.500000 < last=0.600000") +
               at(0, 1, C, "writing model to: 'save/ckpts/work/model.h5'") +
               at(0, 2, C, "model wrote: 1.000 MB in 1.000 seconds (1.00 MB/s).") +
               at(0, 3, C, "rename:  '/abs/save/ckpts/work' -> '/abs/save/ckpts/epochs/015'") +
               at(1, 0, C, "metrics: val_loss: current=0.400000 < last=0.500000")
        << "S0[14,guessed]"
        << "0:15:val_loss=0.5 0:15:write_mb_s=1 0:16:val_loss=0.4"
        << "";

    QTest::newRow("Ckpt Studio's own relink and prune lines count no epoch")
        << at(0, 0, K, "Callback initialized.") +
               at(1, 0, K, "metrics: loss: current=0.500000 < last=inf") +
               at(5, 0, "CkptStudio", "linking: 'last' -> 'epochs/001' (roll back)") +
               at(5, 1, "CkptStudio", "removing: 'epochs/002'") +
               at(6, 0, K, "Callback initialized.") + at(6, 0, K, "restarting from epoch: 1") +
               at(7, 0, K, "metrics: loss: current=0.400000 < last=0.500000")
        << "S0[fresh,stated] S1[1,stated]"
        << "0:1:loss=0.5 1:2:loss=0.4"
        << "";

    QTest::newRow("all three prefixes, timestamps without milliseconds")
        << QByteArray(
               "2026-11-22 13:00:00 CkptStudio: Callback initialized.\n"
               "2026-11-22 13:01:00 CandleCkpt: metrics: loss: current=0.5 < last=inf\n"
               "2026-11-22 13:02:00 CandleCheckpoint: metrics: loss: current=nan = last=0.5\n")
        << "S0[fresh,stated]"
        << "0:1:loss=0.5 0:2:loss=nan"
        << "";

    QTest::newRow("other loggers' lines and blank lines are skipped")
        << at(0, 0, C, "Callback initialized.") + at(0, 1, "tensorflow", "some warning") + "\n" +
               at(1, 0, C, "metrics: loss: current=0.500000 < last=inf")
        << "S0[fresh,stated]"
        << "0:1:loss=0.5"
        << "";

    QTest::newRow("partial trailing line is ignored")
        << at(0, 0, C, "Callback initialized.") +
               at(1, 0, C, "metrics: loss: current=0.500000 < last=inf") +
               at(2, 0, C, "metrics: loss: current=0.4").chopped(1)
        << "S0[fresh,stated]"
        << "0:1:loss=0.5"
        << "";

    QTest::newRow("garbage lines are problems, numbering goes on")
        << at(0, 0, C, "Callback initialized.") + "Traceback (most recent call last):\n" +
               at(1, 0, C, "metrics: loss: current=abc < last=inf") +
               at(2, 0, C, "metrics: loss current=0.5") + "2026-11-22 13:03:00,000\n" +
               at(4, 0, C, "metrics: loss: current=0.400000 < last=inf")
        << "S0[fresh,stated]"
        << "0:3:loss=0.4"
        << "ckpt.log:2 ckpt.log:3 ckpt.log:4 ckpt.log:5";

    QTest::newRow("empty") << QByteArray() << ""
                           << ""
                           << "";
}

void tst_CkptLogParser::parse()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, segments);
    QFETCH(QString, samples);
    QFETCH(QString, problems);

    const auto f =
        CkptLogParser::parse(std::string_view(text.constData(), text.size()), "ckpt.log");
    QVERIFY(f.source == MetricSource::CkptLog);
    QCOMPARE(segmentsText(f), segments);
    QCOMPARE(samplesText(f), samples);
    QCOMPARE(problemsText(f), problems);
}

void tst_CkptLogParser::wallTimesAndSegmentStarts()
{
    const QByteArray text = at(0, 0, "CandleCheckpoint", "Callback initialized.") +
                            at(1, 30, "CandleCheckpoint", "metrics: loss: current=0.5 < last=inf") +
                            at(10, 0, "CANDLE restart()", "restarting: epoch=1 timestamp=x") +
                            at(10, 5, "CandleCheckpoint", "Callback initialized.");
    const auto f =
        CkptLogParser::parse(std::string_view(text.constData(), text.size()), "ckpt.log");
    auto local = [](int minute, int second) {
        return QDateTime(QDate(2026, 11, 22), QTime(13, minute, second, 250), Qt::LocalTime)
                   .toMSecsSinceEpoch() /
               1000.0;
    };
    QCOMPARE(f.samples.size(), std::size_t(1));
    QVERIFY(f.samples[0].wallTime);
    QCOMPARE(*f.samples[0].wallTime, local(1, 30));
    QCOMPARE(f.segments.size(), std::size_t(2));
    QCOMPARE(f.segments[0].startedAt, std::string("2026-11-22 13:00:00,250"));
    QCOMPARE(*f.segments[0].startWall, local(0, 0));
    QCOMPARE(f.segments[0].line, 1);
    // The restart function logs before the callback: the process starts there.
    QCOMPARE(f.segments[1].startedAt, std::string("2026-11-22 13:10:00,250"));
    QCOMPARE(f.segments[1].line, 3);
    QCOMPARE(f.segments[1].resumedFrom, std::optional<int>(1));
}

void tst_CkptLogParser::garbageNamesFileAndLine()
{
    const auto f = CkptLogParser::parse("oops\n", "/r/save/ckpt.log");
    QCOMPARE(f.problems.size(), std::size_t(1));
    QVERIFY(f.problems[0].kind == ProblemKind::BadLog);
    QCOMPARE(f.problems[0].path, std::string("/r/save/ckpt.log"));
    QVERIFY(f.problems[0].message.starts_with("/r/save/ckpt.log:1: "));
}

QTEST_GUILESS_MAIN(tst_CkptLogParser)
#include "tst_CkptLogParser.moc"
