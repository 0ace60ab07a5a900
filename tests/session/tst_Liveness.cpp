#include "CandleFixture.h"
#include "LiveStateCompare.h"
#include "liveness/Liveness.h"
#include "liveness/ProcOpenFiles.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace ckpt;
using test::CandleFixture;
namespace fs = std::filesystem;

namespace {
Epoch epochAt(int number, const fs::path& dir)
{
    Epoch e;
    e.number = number;
    e.dir = dir.string(); // absolute: Run::pathOf takes it as it is
    return e;
}
} // namespace

Q_DECLARE_METATYPE(ckpt::LiveState)

class tst_Liveness : public QObject
{
    Q_OBJECT
private slots:
    void decide_data();
    void decide();
    void cadenceSetsTheWindow();
    void processHoldingWorkOpenIsLive();
    void leftoverWorkIsInterruptedAndSettled();
};

void tst_Liveness::decide_data()
{
    QTest::addColumn<bool>("hasWork");
    QTest::addColumn<qint64>("workAgeMs"); // -1: none
    QTest::addColumn<qint64>("epochAgeMs");
    QTest::addColumn<qint64>("cadenceMs");
    QTest::addColumn<bool>("heldOpen");
    QTest::addColumn<LiveState>("expected");
    const qint64 none = -1;
    QTest::newRow("nothing") << false << none << none << none << false << LiveState::Idle;
    QTest::newRow("epoch just saved")
        << false << none << qint64(500) << qint64(2000) << false << LiveState::Live;
    QTest::newRow("epochs stopped 3 cadences ago")
        << false << none << qint64(61'000) << qint64(20'000) << false << LiveState::Idle;
    QTest::newRow("slow run: 5 min since an epoch, 10 min cadence")
        << false << none << qint64(300'000) << qint64(600'000) << false << LiveState::Live;
    QTest::newRow("work/ being written")
        << true << qint64(200) << qint64(5000) << qint64(5000) << false << LiveState::Live;
    QTest::newRow("work/ stale: crashed save") << true << qint64(40'000) << qint64(40'000)
                                               << qint64(2000) << false << LiveState::Interrupted;
    QTest::newRow("work/ stale but held open (slow write)")
        << true << qint64(40'000) << qint64(40'000) << qint64(2000) << true << LiveState::Live;
    QTest::newRow("log held open, no new epoch for long")
        << false << none << qint64(3'600'000) << qint64(1000) << true << LiveState::Live;
}

void tst_Liveness::decide()
{
    QFETCH(bool, hasWork);
    QFETCH(qint64, workAgeMs);
    QFETCH(qint64, epochAgeMs);
    QFETCH(qint64, cadenceMs);
    QFETCH(bool, heldOpen);
    QFETCH(LiveState, expected);
    Liveness::Evidence e;
    e.hasWork = hasWork;
    if (workAgeMs >= 0)
        e.workAgeMs = workAgeMs;
    if (epochAgeMs >= 0)
        e.epochAgeMs = epochAgeMs;
    if (cadenceMs >= 0)
        e.cadenceMs = cadenceMs;
    e.heldOpen = heldOpen;
    QCOMPARE_STATE(Liveness::decide(e), expected);
}

void tst_Liveness::cadenceSetsTheWindow()
{
    QTemporaryDir dir;
    CandleFixture f(fs::path(dir.path().toStdString()) / "ckpts");
    // Four saves 20 s apart, the last one 30 s ago.
    for (int e = 1; e <= 4; ++e) {
        f.addEpoch(e, 1.0 / e);
        CandleFixture::backdate(f.epochDir(e) / "ckpt-info.json", 30 + 20 * (4 - e));
    }
    Run run;
    run.root = f.root().string();
    for (int e = 1; e <= 4; ++e)
        run.epochs.push_back(epochAt(e, f.epochDir(e)));
    const auto evidence = Liveness::gather(Liveness::subjectOf(run), ProcOpenFiles{});
    QVERIFY(evidence.cadenceMs);
    QVERIFY2(std::abs(*evidence.cadenceMs - 20'000) < 1500,
             qPrintable(QString::number(*evidence.cadenceMs)));
    QVERIFY(evidence.epochAgeMs && *evidence.epochAgeMs >= 29'000);
    // Three cadences; the backdating lands a few ms apart (tens under ASan), so
    // the cadence, and with it the window, is 20 s give or take those ms.
    QCOMPARE(Liveness::windowMs(evidence), 3 * *evidence.cadenceMs);
    QVERIFY2(std::abs(Liveness::windowMs(evidence) - 60'000) < 4500,
             qPrintable(QString::number(Liveness::windowMs(evidence))));
    QCOMPARE_STATE(Liveness::decide(evidence), LiveState::Live); // 30 s < 3 x 20 s
}

void tst_Liveness::processHoldingWorkOpenIsLive()
{
    QTemporaryDir dir;
    const fs::path work = fs::path(dir.path().toStdString()) / "ckpts/work";
    CandleFixture::writeText(work / "model.h5", "being written");
    CandleFixture::backdate(work / "model.h5", 3600);
    CandleFixture::backdate(work, 3600);
    Liveness::Subject subject;
    subject.root = work.parent_path().string();
    subject.workDir = work.string();
    QCOMPARE_STATE(Liveness::decide(Liveness::gather(subject, ProcOpenFiles::read())),
                   LiveState::Interrupted);

    // A writer (another process) holds the file open: live, whatever the times say.
    QProcess writer;
    writer.start(
        QStringLiteral("/bin/sh"),
        {QStringLiteral("-c"), QStringLiteral("exec 3>>'%1'; echo ready; exec sleep 30")
                                   .arg(QString::fromStdString((work / "model.h5").string()))});
    QVERIFY(writer.waitForReadyRead(5000));
    const ProcOpenFiles open = ProcOpenFiles::read();
    QVERIFY(open.anyUnder(work.string()));
    QCOMPARE_STATE(Liveness::decide(Liveness::gather(subject, open)), LiveState::Live);
    writer.kill();
    writer.waitForFinished();
    QTRY_VERIFY(Liveness::decide(Liveness::gather(subject, ProcOpenFiles::read())) ==
                LiveState::Interrupted);
}

void tst_Liveness::leftoverWorkIsInterruptedAndSettled()
{
    QTemporaryDir dir;
    CandleFixture f(fs::path(dir.path().toStdString()) / "ckpts");
    f.addEpoch(1, 0.5);
    CandleFixture::backdate(f.epochDir(1) / "ckpt-info.json", 3600);
    CandleFixture::writeText(f.root() / "work/model.h5", "partial");
    CandleFixture::backdate(f.root() / "work/model.h5", 3600);
    CandleFixture::backdate(f.root() / "work", 3600);
    Run run;
    run.root = f.root().string();
    run.inProgress.push_back(InProgressItem{(f.root() / "work").string(), std::nullopt});
    run.epochs.push_back(epochAt(1, f.epochDir(1)));
    QCOMPARE_STATE(Liveness::settle(run), LiveState::Interrupted);
    QCOMPARE(run.problems.size(), std::size_t(1));
    QVERIFY(run.problems[0].kind == ProblemKind::InterruptedSave);
    QVERIFY(!Liveness::settle(run, LiveState::Interrupted)); // idempotent
    QVERIFY(Liveness::settle(run, LiveState::Live));
    QVERIFY(run.problems.empty());
}

QTEST_GUILESS_MAIN(tst_Liveness)
#include "tst_Liveness.moc"
