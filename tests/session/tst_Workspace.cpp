#include "CandleFixture.h"
#include "LightningFixture.h"
#include "LiveStateCompare.h"
#include "ProcessRunner.h"
#include "models/ChecksumState.h"
#include "models/EpochTableModel.h"
#include "models/ModelRoles.h"
#include "models/ProblemsModel.h"
#include "models/RunTreeModel.h"
#include "session/Workspace.h"

#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace ckpt;
using test::CandleFixture;
using test::LightningFixture;
namespace fs = std::filesystem;

namespace {

// "Within a second" of a change made outside the app.
constexpr int kSecond = 1000;

QString binary(const QString& relative)
{
    return qEnvironmentVariable("CKPT_TEST_BINARY_DIR") + QLatin1Char('/') + relative;
}

// Runs a command as a user would type it in a terminal beside the app.
void shell(const QString& command)
{
    const auto r = test::runProcess(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), command});
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(command + ": " + r.err));
}

bool hasProblem(const Workspace& ws, const QString& root, ProblemKind kind,
                std::optional<int> epoch = std::nullopt)
{
    const ProblemsModel* m = ws.problems();
    for (int row = 0; row < m->rowCount(); ++row) {
        const Problem* p = m->problemAt(row);
        if (p && m->rootAt(row) == root && p->kind == kind && (!epoch || p->epoch == epoch))
            return true;
    }
    return false;
}

int badgeProblems(const Workspace& ws, const QString& root)
{
    const RunSummary* s = ws.runTree()->summary(root);
    return s ? s->problems : -1;
}

bool runIsLive(const Workspace& ws, const QString& root)
{
    return ws.runTree()->indexOfRun(root).data(roles::LiveRole).toBool();
}

} // namespace

class tst_Workspace : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void linkChangedWithLnUpdatesEveryView();
    void metricsLoggedAfterTheCheckpointShowWithinASecond();
    void metricLogCreatedAfterOpenShowsWithinASecond();
    void relinkFromAnotherProcessMovesBadgesAndMarkers_data();
    void relinkFromAnotherProcessMovesBadgesAndMarkers();
    void truncatedInfoShowsWithinASecond();
    void leftoverWorkIsInterruptedNotLive();
    void trainerIsLiveAndNeverInterrupted();
    void changedFileIsVerifiedAgain();
    void mismatchIsAProblemAndSurvivesRestart();

private:
    // Opens `folder` and waits until it is loaded and watched.
    void open(Workspace& ws, const QString& folder);
    QString makeRun(const fs::path& root, int epochs);

    QTemporaryDir m_dir;
};

void tst_Workspace::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_Workspace::init()
{
    // Remembered verdicts from one test must not leak into the next.
    QFile::remove(QStandardPaths::writableLocation(QStandardPaths::CacheLocation) +
                  QStringLiteral("/verify-cache.json"));
}

QString tst_Workspace::makeRun(const fs::path& root, int epochs)
{
    CandleFixture f(root);
    for (int e = 1; e <= epochs; ++e)
        f.addEpoch(e, 1.0 / e, 256, e == 1);
    f.linkAbsolute("last", epochs);
    f.linkAbsolute("best", epochs);
    // Saved a while ago: nobody is writing this run.
    for (int e = 1; e <= epochs; ++e) {
        CandleFixture::backdate(f.epochDir(e) / "ckpt-info.json", 3600);
        CandleFixture::backdate(f.epochDir(e), 3600);
    }
    return QString::fromStdString(root.string());
}

void tst_Workspace::open(Workspace& ws, const QString& folder)
{
    QSignalSpy finished(&ws, &Workspace::allScansFinished);
    ws.openFolders({folder});
    QVERIFY(finished.wait(10000));
    QTRY_VERIFY(ws.isIdle());
    // The scan hands its runs to the watcher queued: wait until it has them.
    ws.flushWatcher();
}

void tst_Workspace::metricsLoggedAfterTheCheckpointShowWithinASecond()
{
    // Keras's CSVLogger may write an epoch's row after the checkpoint callback
    // saved it: the table must not keep the epoch blank until the next one.
    QTemporaryDir dir;
    const fs::path run = fs::path(dir.path().toStdString()) / "EXP/RUN000";
    const QString root = makeRun(run / "ckpts", 4);
    CandleFixture::writeText(run / "training.log", "epoch,loss\n0,0.9\n1,0.8\n2,0.7\n");
    Workspace ws;
    open(ws, dir.path());
    ws.showRuns({root});
    EpochTableModel* table = ws.epochTable();
    const auto lossOf = [&](int epoch) {
        const int column = int(table->metricNames().indexOf(QStringLiteral("loss")));
        if (column < 0)
            return QString();
        return table
            ->index(table->rowOf(root, epoch),
                    table->columnOf(EpochTableModel::ColumnKind::Metric) + column)
            .data()
            .toString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(lossOf(3), QStringLiteral("0.7"), kSecond);
    QCOMPARE(lossOf(4), QString());

    {
        std::ofstream append(run / "training.log", std::ios::app);
        append << "3,0.6\n";
    }
    QTRY_COMPARE_WITH_TIMEOUT(lossOf(4), QStringLiteral("0.6"), kSecond);

    // A restarted trainer that starts its log over: what it no longer holds goes.
    CandleFixture::writeText(run / "training.log.new", "epoch,loss\n3,0.5\n");
    fs::rename(run / "training.log.new", run / "training.log");
    QTRY_COMPARE_WITH_TIMEOUT(lossOf(4), QStringLiteral("0.5"), kSecond);
    QCOMPARE(lossOf(3), QString());
}

void tst_Workspace::metricLogCreatedAfterOpenShowsWithinASecond()
{
    // Issue 36: a metrics.csv created after the run was opened never showed
    // until it was appended to (the run kept "no metrics.csv" as its source).
    QTemporaryDir dir;
    const fs::path version = fs::path(dir.path().toStdString()) / "lightning_logs/version_0";
    LightningFixture f(version); // hparams.yaml only: metrics.csv comes with the first log
    f.addCheckpoint(0, 10);
    f.addCheckpoint(1, 20);
    const QString root = QString::fromStdString(version.string());
    Workspace ws;
    open(ws, dir.path());
    ws.showRuns({root});
    EpochTableModel* table = ws.epochTable();
    const auto lossOf = [&](int epoch) {
        const int column = int(table->metricNames().indexOf(QStringLiteral("late_loss")));
        if (column < 0)
            return QString();
        return table
            ->index(table->rowOf(root, epoch),
                    table->columnOf(EpochTableModel::ColumnKind::Metric) + column)
            .data()
            .toString();
    };
    QCOMPARE(lossOf(20), QString());

    // Written aside and renamed into place, as an atomic writer does.
    CandleFixture::writeText(version / ".metrics.csv.part",
                             "epoch,step,late_loss\n0,9,0.5\n1,19,0.25\n");
    fs::rename(version / ".metrics.csv.part", version / "metrics.csv");
    QTRY_COMPARE_WITH_TIMEOUT(lossOf(20), QStringLiteral("0.25"), kSecond);
    QCOMPARE(lossOf(10), QStringLiteral("0.5"));
}

void tst_Workspace::linkChangedWithLnUpdatesEveryView()
{
    QTemporaryDir dir;
    const QString root = makeRun(fs::path(dir.path().toStdString()) / "EXP/RUN000/ckpts", 4);
    const QString outside = dir.path() + QStringLiteral("/elsewhere/epochs/009");
    QVERIFY(QDir().mkpath(outside));
    Workspace ws;
    open(ws, dir.path());
    ws.showRuns({root});
    QCOMPARE(badgeProblems(ws, root), 0);
    QSignalSpy changed(&ws, &Workspace::runChanged);

    // A user points last outside the run with ln -sfn.
    shell(QStringLiteral("ln -sfn '%1' '%2/last'").arg(outside, root));
    QTRY_VERIFY_WITH_TIMEOUT(hasProblem(ws, root, ProblemKind::LinkOutsideRun), kSecond);
    QCOMPARE(badgeProblems(ws, root), ws.problems()->problemCount(root));
    QVERIFY(badgeProblems(ws, root) > 0);
    QVERIFY(ws.run(root)->linkedEpoch("last") != 4);
    QVERIFY(!changed.isEmpty()); // the plot's markers follow runChanged

    // And back, relative this time: the problem goes away as fast.
    shell(QStringLiteral("ln -sfn epochs/002 '%1/last'").arg(root));
    QTRY_VERIFY_WITH_TIMEOUT(!hasProblem(ws, root, ProblemKind::LinkOutsideRun), kSecond);
    QTRY_COMPARE_WITH_TIMEOUT(badgeProblems(ws, root), 0, kSecond);
    QCOMPARE(ws.runTree()->summary(root)->lastEpoch, std::optional<int>(2));
    const int row = ws.epochTable()->rowOf(root, 2);
    QVERIFY(ws.epochTable()->index(row, 0).data(roles::IsLastRole).toBool());
}

void tst_Workspace::relinkFromAnotherProcessMovesBadgesAndMarkers_data()
{
    QTest::addColumn<QString>("link");
    QTest::addColumn<int>("epoch");
    QTest::addColumn<bool>("bestNotAtBest");
    QTest::newRow("last to 3") << "last" << 3 << false;
    QTest::newRow("best to 2 (not the best)") << "best" << 2 << true;
}

void tst_Workspace::relinkFromAnotherProcessMovesBadgesAndMarkers()
{
    QFETCH(QString, link);
    QFETCH(int, epoch);
    QFETCH(bool, bestNotAtBest);
    const QString ckpt = binary(QStringLiteral("app/cli/ckpt"));
    if (!QFileInfo(ckpt).isExecutable())
        QSKIP("ckpt not built");
    QTemporaryDir dir;
    const QString root = makeRun(fs::path(dir.path().toStdString()) / "r/ckpts", 5);
    Workspace ws;
    open(ws, dir.path());

    QProcess relink;
    relink.start(ckpt, {QStringLiteral("relink"), root, QStringLiteral("--") + link,
                        QString::number(epoch)});
    QVERIFY(relink.waitForFinished(30000));
    QCOMPARE(relink.exitCode(), 0);
    const auto linked = [&] {
        const RunSummary* s = ws.runTree()->summary(root);
        return s && (link == QLatin1String("last") ? s->lastEpoch : s->bestEpoch) == epoch;
    };
    QTRY_VERIFY_WITH_TIMEOUT(linked(), kSecond);
    QTRY_COMPARE_WITH_TIMEOUT(hasProblem(ws, root, ProblemKind::BestNotAtBest), bestNotAtBest,
                              kSecond);
    QCOMPARE(badgeProblems(ws, root), ws.problems()->problemCount(root));
}

void tst_Workspace::truncatedInfoShowsWithinASecond()
{
    QTemporaryDir dir;
    const QString root = makeRun(fs::path(dir.path().toStdString()) / "r/ckpts", 3);
    Workspace ws;
    open(ws, dir.path());
    ws.showRuns({root});
    QVERIFY(!hasProblem(ws, root, ProblemKind::BadInfo, 2));

    shell(QStringLiteral("truncate -s 17 '%1/epochs/002/ckpt-info.json'").arg(root));
    QTRY_VERIFY_WITH_TIMEOUT(hasProblem(ws, root, ProblemKind::BadInfo, 2), kSecond);
    QTRY_COMPARE_WITH_TIMEOUT(badgeProblems(ws, root), 1, kSecond);
    const int row = ws.epochTable()->rowOf(root, 2);
    QTRY_VERIFY_WITH_TIMEOUT(
        ws.epochTable()->index(row, 0).data(roles::ProblemCountRole).toInt() > 0, kSecond);

    // Written back whole: healthy again.
    CandleFixture(fs::path(root.toStdString())).addEpoch(2, 0.5, 256);
    QTRY_VERIFY_WITH_TIMEOUT(!hasProblem(ws, root, ProblemKind::BadInfo, 2), kSecond);
}

void tst_Workspace::leftoverWorkIsInterruptedNotLive()
{
    QTemporaryDir dir;
    const fs::path rootPath = fs::path(dir.path().toStdString()) / "r/ckpts";
    const QString root = makeRun(rootPath, 3);
    // A save that crashed an hour ago: work/ with half a model, nobody writing.
    CandleFixture::writeText(rootPath / "work/model.h5", "partial");
    CandleFixture::backdate(rootPath / "work/model.h5", 3600);
    CandleFixture::backdate(rootPath / "work", 3600);
    Workspace ws;
    open(ws, dir.path());
    QTRY_VERIFY_WITH_TIMEOUT(hasProblem(ws, root, ProblemKind::InterruptedSave), kSecond);
    QVERIFY(!runIsLive(ws, root));

    // Deleted by the user: the problem goes, and the run is idle, not live.
    fs::remove_all(rootPath / "work");
    QTRY_VERIFY_WITH_TIMEOUT(!hasProblem(ws, root, ProblemKind::InterruptedSave), kSecond);
    QVERIFY(!runIsLive(ws, root));
}

void tst_Workspace::trainerIsLiveAndNeverInterrupted()
{
    const QString trainer = binary(QStringLiteral("app/trainer/ckpt-demo-train"));
    if (!QFileInfo(trainer).isExecutable())
        QSKIP("ckpt-demo-train not built");
    QTemporaryDir dir;
    const QString out = dir.path() + QStringLiteral("/RUN000");
    const QString config = QStringLiteral(CKPT_SOURCE_DIR "/resources/demo/spirals.ini");
    const QStringList args{"--output_dir",        out,  "--config_file", config,
                           "--samples_per_class", "30", "--epochs"};
    QProcess first;
    first.start(trainer, args + QStringList{"2"});
    QVERIFY(first.waitForFinished(60000));
    QCOMPARE(first.exitCode(), 0);
    const QString root = out + QStringLiteral("/ckpts");
    Workspace ws;
    QSignalSpy live(&ws, &Workspace::livenessChanged);
    open(ws, dir.path());

    // It resumes and keeps writing epochs while the window watches.
    QProcess training;
    training.start(trainer, args + QStringList{"8", "--epoch_delay", "0.3"});
    QVERIFY(training.waitForStarted());
    QTRY_VERIFY_WITH_TIMEOUT(runIsLive(ws, root), 5000);
    while (training.state() != QProcess::NotRunning) {
        QVERIFY2(!hasProblem(ws, root, ProblemKind::InterruptedSave),
                 "a running trainer's work/ was called interrupted");
        QTest::qWait(20); // sampling while the trainer runs, not waiting for a result
    }
    QCOMPARE(training.exitCode(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(ws.runTree()->summary(root)->epochs, 8, kSecond);
    ws.flushWatcher();
    QVERIFY(!hasProblem(ws, root, ProblemKind::InterruptedSave));
    QVERIFY(!live.isEmpty());
    QCOMPARE_STATE(live.first().at(1).value<LiveState>(), LiveState::Live);
}

void tst_Workspace::changedFileIsVerifiedAgain()
{
    QTemporaryDir dir;
    const fs::path rootPath = fs::path(dir.path().toStdString()) / "r/ckpts";
    const QString root = makeRun(rootPath, 3);
    Workspace ws;
    open(ws, dir.path());
    ws.showRuns({root});
    QSignalSpy finished(&ws, &Workspace::verifyFinished);
    ws.verify({{root, {}}});
    QVERIFY(finished.wait(10000));
    QCOMPARE(ws.state(root)->checks.at(2).state, ChecksumState::Ok);
    QCOMPARE(ws.runTree()->summary(root)->checksum, ChecksumState::Ok);

    // One byte flipped in place (same size): "ok" must not stay.
    {
        std::fstream f(rootPath / "epochs/002/model.h5",
                       std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(10);
        f.put('\x7f');
    }
    // Within a second it is "changed since verified" (or already being
    // verified again), never a quiet "not verified"; then the re-verification,
    // made by itself, says MISMATCH.
    QTRY_VERIFY_WITH_TIMEOUT(ws.state(root)->checks.count(2) &&
                                 ws.state(root)->checks.at(2).state != ChecksumState::Ok,
                             kSecond);
    QVERIFY(ws.state(root)->checks.at(2).state != ChecksumState::Unknown);
    QTRY_COMPARE_WITH_TIMEOUT(ws.state(root)->checks.at(2).state, ChecksumState::Mismatch,
                              10 * kSecond);
    QTRY_COMPARE(ws.runTree()->summary(root)->checksum, ChecksumState::Mismatch);
    const int row = ws.epochTable()->rowOf(root, 2);
    QCOMPARE(static_cast<ChecksumState>(
                 ws.epochTable()->index(row, 0).data(roles::ChecksumStateRole).toInt()),
             ChecksumState::Mismatch);
    QCOMPARE(ws.state(root)->checks.at(1).state, ChecksumState::Ok); // only epoch 2 again
}

void tst_Workspace::mismatchIsAProblemAndSurvivesRestart()
{
    QTemporaryDir dir;
    const fs::path rootPath = fs::path(dir.path().toStdString()) / "r/ckpts";
    const QString root = makeRun(rootPath, 3);
    CandleFixture::writeText(rootPath / "epochs/003/model.h5", std::string(256, 'x'));
    {
        Workspace ws;
        open(ws, dir.path());
        ws.showRuns({root});
        QSignalSpy finished(&ws, &Workspace::verifyFinished);
        ws.verify({{root, {}}});
        QVERIFY(finished.wait(10000));
        QCOMPARE(ws.state(root)->checks.at(3).state, ChecksumState::Mismatch);
        QVERIFY(hasProblem(ws, root, ProblemKind::ChecksumMismatch, 3));
        QCOMPARE(badgeProblems(ws, root), 1);
        QCOMPARE(ws.runTree()->summary(root)->checksum, ChecksumState::Mismatch);
        // The expected and computed values, as `ckpt verify` prints them.
        const int row = ws.epochTable()->rowOf(root, 3);
        const int col = ws.epochTable()->columnOf(EpochTableModel::ColumnKind::Checksum);
        const QString tip = ws.epochTable()->index(row, col).data(Qt::ToolTipRole).toString();
        const QString expected =
            QString::number(CandleFixture::crc32Of(CandleFixture::modelContent(3, 256)));
        QVERIFY2(tip.contains(expected) && tip.contains(QLatin1String("computed")),
                 qPrintable(tip));
        QTRY_VERIFY(ws.isIdle());
    }
    // Restarted: the verdicts come back for the files that did not change.
    Workspace again;
    QSignalSpy loaded(again.verification(), &VerifySession::storeLoaded);
    open(again, dir.path());
    QTRY_VERIFY_WITH_TIMEOUT(again.state(root) && again.state(root)->checks.count(3), 5000);
    QCOMPARE(again.state(root)->checks.at(3).state, ChecksumState::Mismatch);
    QCOMPARE(again.state(root)->checks.at(1).state, ChecksumState::Ok);
    QVERIFY(hasProblem(again, root, ProblemKind::ChecksumMismatch, 3));
    QCOMPARE(again.runTree()->summary(root)->checksum, ChecksumState::Mismatch);
}

QTEST_GUILESS_MAIN(tst_Workspace)
#include "tst_Workspace.moc"
