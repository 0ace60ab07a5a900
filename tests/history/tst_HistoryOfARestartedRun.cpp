// End to end: the demo trainer writes a run, `last` is rolled back, the trainer
// restarts from it. Both processes save within the same second (ckpt-info.json
// timestamps have whole seconds), so only the resume epoch can tell which
// process wrote which epoch.
#include "candle/CandleHistory.h"
#include "candle/CandleLayout.h"
#include "history/HistoryBuilder.h"
#include "ops/Relinker.h"

#include <QTemporaryDir>
#include <QTest>

#include <ProcessRunner.h>

using namespace ckpt;

class tst_HistoryOfARestartedRun : public QObject
{
    Q_OBJECT

private slots:
    void restartedRunHasTwoSegments();

private:
    static void train(const QString& outputDir, int epochs, const QString& restartMode)
    {
        const test::ProcessResult p =
            test::runProcess(QStringLiteral(CKPT_DEMO_TRAIN),
                             {"--output_dir", outputDir, "--epochs", QString::number(epochs),
                              "--ckpt_restart_mode", restartMode, "--seed", "7"},
                             120000);
        QVERIFY(p.finished);
        QVERIFY2(p.exitCode == 0, p.err.constData());
    }
};

void tst_HistoryOfARestartedRun::restartedRunHasTwoSegments()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    train(dir.path(), 10, "off");
    const std::filesystem::path root = dir.path().toStdString() + "/ckpts";
    QVERIFY(Relinker::relink(root, "last", 6, RelinkOptions{}).ok());
    train(dir.path(), 14, "required");

    const Run run = CandleLayout::instance().loadRun(root);
    const MetricHistory h = CandleHistory::build(run);
    QCOMPARE(h.segments.size(), 2u);
    QCOMPARE(h.segments[1].resumedFrom, std::optional<int>(6));

    const auto latest = h.latestPerEpoch();
    QCOMPARE(latest.size(), 14u);
    for (const HistoryRow* row : latest) {
        const int expectedSegment = row->epoch <= 6 ? 0 : 1;
        QCOMPARE(row->segment, expectedSegment);
        // Every epoch has the monitored metric: ckpt.log for the first process
        // (its training.log was overwritten by the restart), training.log after.
        QVERIFY2(row->value("val_loss").has_value(), qPrintable(QString::number(row->epoch)));
        QCOMPARE(
            row->sourceOf("val_loss"),
            std::optional(row->epoch <= 6 ? MetricSource::CkptLog : MetricSource::TrainingLog));
    }
    // The first process's epochs 7..10 were trained again: still in the full history.
    int firstProcessRows = 0;
    for (const auto& row : h.rows)
        firstProcessRows += row.segment == 0;
    QCOMPARE(firstProcessRows, 10);
}

QTEST_GUILESS_MAIN(tst_HistoryOfARestartedRun)
#include "tst_HistoryOfARestartedRun.moc"
