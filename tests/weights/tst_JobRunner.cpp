#include "jobs/JobRunner.h"

#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <atomic>
#include <optional>

using namespace ckpt;

class tst_JobRunner : public QObject
{
    Q_OBJECT
private slots:
    void deliversResultOnItsThread();
    void newerJobDropsStaleResult();
    void cancelDropsResultAndStopsWork();
    void progressArrivesQueued();
};

void tst_JobRunner::deliversResultOnItsThread()
{
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    std::optional<int> got;
    QThread* deliveredOn = nullptr;
    QThread* workedOn = nullptr;
    runner.start<int>(
        [&workedOn](const Progress&) {
            workedOn = QThread::currentThread();
            return 42;
        },
        [&](int v) {
            got = v;
            deliveredOn = QThread::currentThread();
        });
    QVERIFY(runner.isRunning());
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(got, 42);
    QCOMPARE(deliveredOn, QThread::currentThread());
    QVERIFY(workedOn != QThread::currentThread());
    QVERIFY(!runner.isRunning());
    QCOMPARE(finished.at(0).at(1).toBool(), false);
}

void tst_JobRunner::newerJobDropsStaleResult()
{
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    std::atomic_bool release{false};
    std::vector<int> got;
    const quint64 first = runner.start<int>(
        [&release](const Progress&) {
            while (!release.load())
                QThread::msleep(1);
            return 1;
        },
        [&got](int v) { got.push_back(v); });
    const quint64 second =
        runner.start<int>([](const Progress&) { return 2; }, [&got](int v) { got.push_back(v); });
    QVERIFY(second > first);
    release = true;
    QTRY_COMPARE(finished.count(), 2);
    QCOMPARE(got, std::vector<int>{2});
    for (const auto& args : finished) {
        const bool dropped = args.at(1).toBool();
        QCOMPARE(dropped, args.at(0).toULongLong() == first);
    }
}

void tst_JobRunner::cancelDropsResultAndStopsWork()
{
    JobRunner runner;
    QSignalSpy finished(&runner, &JobRunner::finished);
    std::atomic_bool sawCancel{false};
    std::atomic_bool started{false};
    bool delivered = false;
    runner.start<int>(
        [&](const Progress& progress) {
            started = true;
            while (!progress.cancelled())
                QThread::msleep(1);
            sawCancel = true;
            return 0;
        },
        [&delivered](int) { delivered = true; });
    QTRY_VERIFY(started.load());
    runner.cancel();
    QVERIFY(!runner.isRunning());
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(sawCancel.load());
    QVERIFY(!delivered);
    QCOMPARE(finished.at(0).at(1).toBool(), true);
}

void tst_JobRunner::progressArrivesQueued()
{
    JobRunner runner;
    runner.setProgressInterval(0);
    QSignalSpy progress(&runner, &JobRunner::progress);
    QSignalSpy finished(&runner, &JobRunner::finished);
    runner.start<int>(
        [](const Progress& p) {
            for (std::uint64_t i = 1; i <= 3; ++i)
                p.report(ProgressUpdate{i, 3, "tensors", "t" + std::to_string(i)});
            return 0;
        },
        [](int) {});
    QTRY_COMPARE(finished.count(), 1);
    QTRY_COMPARE(progress.count(), 3);
    QCOMPARE(progress.last().at(0).toULongLong(), 3u);
    QCOMPARE(progress.last().at(1).toULongLong(), 3u);
    QCOMPARE(progress.last().at(2).toString(), QStringLiteral("t3"));
}

QTEST_GUILESS_MAIN(tst_JobRunner)
#include "tst_JobRunner.moc"
