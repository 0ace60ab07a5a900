#include "CliRunner.h"
#include "DemoRun.h"
#include "ProcessRunner.h"
#include "candle/CandleResume.h"
#include "io/AtomicFile.h"
#include "launch/CommandTemplate.h"
#include "launch/LaunchEvents.h"
#include "launch/Launcher.h"
#include "launch/SlurmClient.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <filesystem>
#include <random>
#include <set>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace ckpt;
namespace fs = std::filesystem;

// Against a REAL one-node cluster started by scripts/slurm-cluster.sh in a
// temporary folder (its own munge socket and free ports). Skipped only where
// Slurm is not installed.
class tst_SlurmBackend : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void jobRunsTrainerToCompletion();
    void requeueResumesUnderTheSameRecord();
    void preemptionSignalLetsTheEpochFinishAndRequeues();
    void stopCancelsTheJob();
    void sweepIsOneJobArray();
    void sbatchRefusalUndoesTheRestart();
    void killedAroundSbatchLeavesNoJobUnnamed();

private:
    LaunchPlan trainerPlan(const std::string& name, int epochs, double delay,
                           const std::string& restartMode);
    void waitForState(const std::string& root, RunState state, int timeoutMs,
                      std::set<RunState>* seen = nullptr);
    static QString cluster(const QString& action, const QString& dir);
    void releaseHold(const std::string& jobId);
    // Trains <name> locally (epochs), its config saying 6 epochs of 0.4 s.
    fs::path trainLocally(const std::string& name, int epochs);
    static QStringList launchArgs(const fs::path& folder, const QString& options);

    QTemporaryDir m_dir;
    QString m_clusterDir;
    bool m_started = false;
    std::unique_ptr<Launcher> m_launcher;
};

QString tst_SlurmBackend::cluster(const QString& action, const QString& dir)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.start(QStringLiteral("bash"),
            {QStringLiteral(CKPT_SOURCE_DIR "/scripts/slurm-cluster.sh"), action, dir});
    if (!p.waitForFinished(90000))
        return QStringLiteral("timeout");
    return p.exitCode() == 0 ? QString::fromUtf8(p.readAllStandardOutput())
                             : QStringLiteral("exit %1").arg(p.exitCode());
}

void tst_SlurmBackend::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    const QStringList path = {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin")};
    if (QStandardPaths::findExecutable(QStringLiteral("slurmctld"), path).isEmpty() ||
        QStandardPaths::findExecutable(QStringLiteral("sbatch")).isEmpty())
        QSKIP("Slurm is not installed here (apt-get install slurmctld slurmd slurm-client munge, "
              "or scripts/setup-deps.sh)");
    if (::geteuid() != 0)
        QSKIP("a test cluster needs root (SlurmUser=root, munged as user munge)");
    // munged runs as user munge: it must reach the cluster folder.
    QVERIFY(::chmod(m_dir.path().toLocal8Bit().constData(), 0755) == 0);
    m_clusterDir = m_dir.filePath(QStringLiteral("cluster"));
    const QString out = cluster(QStringLiteral("start"), m_clusterDir);
    QVERIFY2(out.startsWith(QLatin1String("export SLURM_CONF=")), qPrintable(out));
    m_started = true;
    qputenv("SLURM_CONF", out.mid(18).trimmed().toUtf8());
    m_launcher = std::make_unique<Launcher>(
        LaunchRegistry(m_dir.filePath(QStringLiteral("registry.json")).toStdString()));
}

void tst_SlurmBackend::cleanupTestCase()
{
    if (m_started)
        QCOMPARE(cluster(QStringLiteral("stop"), m_clusterDir).startsWith(QLatin1String("exit")),
                 false);
}

LaunchPlan tst_SlurmBackend::trainerPlan(const std::string& name, int epochs, double delay,
                                         const std::string& restartMode)
{
    const std::string out = m_dir.path().toStdString() + "/" + name;
    fs::create_directories(out);
    const std::string config = out + "/demo.ini";
    if (Status st = writeFileAtomically(config, "[Global_Params]\nsamples_per_class = 40\n"
                                                "epoch_delay = " +
                                                    std::to_string(delay) + "\n");
        !st)
        qFatal("%s", st.error().message.c_str());
    const std::map<std::string, std::string> values = {{"config", config},
                                                       {"output_dir", out},
                                                       {"ckpt_directory", out + "/ckpts"},
                                                       {"epochs", std::to_string(epochs)},
                                                       {"ckpt_restart_mode", restartMode}};
    const CommandTemplate tmpl = CommandTemplate(CandleResume::demoTrainerCommand(CKPT_DEMO_TRAIN));
    LaunchPlan plan;
    plan.runRoot = out + "/ckpts";
    plan.name = name;
    plan.workingDir = out;
    plan.commandTemplate = tmpl.text();
    plan.argv = tmpl.expand(values).value();
    plan.configFile = config;
    plan.backend = LaunchPlan::Backend::Slurm;
    plan.slurm.cpusPerTask = 1;
    plan.slurm.time = "00:10:00";
    plan.slurm.signalGraceSeconds = 30;
    plan.slurm.lastLink = plan.runRoot + "/last";
    plan.slurm.requeueArguments = CandleResume::instance().requeueArguments();
    return plan;
}

void tst_SlurmBackend::waitForState(const std::string& root, RunState state, int timeoutMs,
                                    std::set<RunState>* seen)
{
    QElapsedTimer timer;
    timer.start();
    RunState now = RunState::Pending;
    std::string error;
    while (timer.elapsed() < timeoutMs) {
        auto rec = Launcher::refresh(root);
        if (rec) {
            now = rec->state();
            if (seen)
                seen->insert(now);
            if (now == state)
                return;
        } else {
            error = rec.error().message;
        }
        QTest::qSleep(100);
    }
    // Say what the job did: the record and the tail of its output.
    if (auto rec = LaunchRecord::load(LaunchRecord::pathFor(root)); rec && !rec->attempts.empty()) {
        qWarning("record: %s", readFile(LaunchRecord::pathFor(root)).valueOr("").c_str());
        const std::string log = readFile(rec->attempts.back().logPath).valueOr("");
        qWarning("output: %s", log.substr(log.size() > 3000 ? log.size() - 3000 : 0).c_str());
    }
    const std::string ctld =
        readFile(m_clusterDir.toStdString() + "/log/slurmctld.log").valueOr("");
    qWarning("slurmctld: %s", ctld.substr(ctld.size() > 4000 ? ctld.size() - 4000 : 0).c_str());
    QFAIL(qPrintable(QStringLiteral("%1: still %2, waited for %3 (%4)")
                         .arg(QString::fromStdString(root), QLatin1String(runStateName(now)),
                              QLatin1String(runStateName(state)), QString::fromStdString(error))));
}

void tst_SlurmBackend::releaseHold(const std::string& jobId)
{
    // A requeued job is held ~120 s (BeginTime): bring that forward, but not
    // at once: slurmd revokes the old run's credential with a one-second
    // resolution, and a rerun allocated within that second is killed with
    // "Job credential revoked" (the job then really fails). A start time in
    // the future would wait for Slurm's periodic scheduler pass instead.
    QTRY_VERIFY_WITH_TIMEOUT(SlurmClient::query(jobId).valueOr({}).state == "PENDING", 20000);
    QTest::qSleep(2000);
    auto released = SlurmClient::run("scontrol", {"update", "JobId=" + jobId, "StartTime=now"});
    QVERIFY2(released, released ? "" : released.error().message.c_str());
}

void tst_SlurmBackend::jobRunsTrainerToCompletion()
{
    const LaunchPlan plan = trainerPlan("RUN000", 3, 0.2, "auto");
    auto record = m_launcher->launch(plan);
    QVERIFY2(record, record ? "" : record.error().message.c_str());
    const LaunchAttempt& a = record->attempts.back();
    QVERIFY(!a.jobId.empty());
    QVERIFY(fs::exists(a.scriptPath));
    std::set<RunState> seen;
    waitForState(plan.runRoot, RunState::Completed, 40000, &seen);
    QVERIFY(seen.count(RunState::Running) || seen.count(RunState::Pending));

    auto done = LaunchRecord::load(LaunchRecord::pathFor(plan.runRoot)).value();
    const LaunchAttempt& d = done.attempts.back();
    QCOMPARE(d.slurmState, std::string("COMPLETED"));
    QCOMPARE(d.segments.size(), std::size_t{1});
    QCOMPARE(d.segments[0].exitStatus.value_or(-1), 0);
    QVERIFY(d.segments[0].pid > 0);
    QVERIFY(!d.segments[0].host.empty());
    QVERIFY(!d.ended.empty());
    const std::string log = readFile(d.logPath).value();
    QVERIFY2(log.find("Epoch 3/3") != std::string::npos, log.c_str());
    QVERIFY(fs::exists(plan.runRoot + "/epochs/003/ckpt-info.json"));
    // Listed with its job id.
    auto runs = m_launcher->runs();
    QVERIFY(runs);
    bool listed = false;
    for (const auto& l : *runs)
        listed = listed || (l.record && l.record->attempts.back().jobId == d.jobId);
    QVERIFY(listed);
}

void tst_SlurmBackend::requeueResumesUnderTheSameRecord()
{
    // Started with restart mode off: only the requeue arguments
    // (--ckpt_restart_mode auto) make the rerun resume from `last`.
    const LaunchPlan plan = trainerPlan("RUN001", 5, 0.6, "off");
    auto record = m_launcher->launch(plan);
    QVERIFY(record);
    const std::string job = record->attempts.back().jobId;
    QTRY_VERIFY_WITH_TIMEOUT(fs::exists(plan.runRoot + "/epochs/002/ckpt-info.json"), 30000);
    auto requeued = SlurmClient::run("scontrol", {"requeue", job});
    QVERIFY2(requeued, requeued ? "" : requeued.error().message.c_str());
    releaseHold(job);
    waitForState(plan.runRoot, RunState::Completed, 60000);

    auto done = LaunchRecord::load(LaunchRecord::pathFor(plan.runRoot)).value();
    QCOMPARE(done.attempts.size(), std::size_t{1}); // one record, one launch
    const LaunchAttempt& d = done.attempts.back();
    QCOMPARE(d.jobId, job);
    QCOMPARE(d.segments.size(), std::size_t{2});
    QCOMPARE(d.segments[0].restart, 0);
    QCOMPARE(d.segments[0].state, RunState::Requeued);
    QCOMPARE(d.segments[1].restart, 1);
    QCOMPARE(d.segments[1].state, RunState::Completed);
    QCOMPARE(d.pids().size(), std::size_t{2});
    const std::string log = readFile(d.logPath).value();
    QVERIFY2(log.find("Restarting from") != std::string::npos, log.c_str());
    QVERIFY(log.find("start 1 on") != std::string::npos); // both runs appended to one log
    QVERIFY(fs::exists(plan.runRoot + "/epochs/005/ckpt-info.json"));
}

void tst_SlurmBackend::preemptionSignalLetsTheEpochFinishAndRequeues()
{
    const LaunchPlan plan = trainerPlan("RUN002", 6, 0.8, "off");
    auto record = m_launcher->launch(plan);
    QVERIFY(record);
    const std::string job = record->attempts.back().jobId;
    QTRY_VERIFY_WITH_TIMEOUT(fs::exists(plan.runRoot + "/epochs/001/ckpt-info.json"), 30000);
    // What Slurm does at --signal=B:USR1@grace before the time limit.
    auto signalled = SlurmClient::run("scancel", {"--batch", "--signal=USR1", job});
    QVERIFY2(signalled, signalled ? "" : signalled.error().message.c_str());
    releaseHold(job);
    waitForState(plan.runRoot, RunState::Completed, 60000);

    const LaunchAttempt d =
        LaunchRecord::load(LaunchRecord::pathFor(plan.runRoot)).value().attempts.back();
    QCOMPARE(d.segments.size(), std::size_t{2});
    QCOMPARE(d.segments[0].state, RunState::Requeued);
    std::vector<std::string> types;
    for (const auto& e : LaunchEvents::read(d.eventsPath))
        types.push_back(e.type);
    QCOMPARE(types,
             (std::vector<std::string>{"start", "preempt", "exit", "requeue", "start", "exit"}));
    const std::string log = readFile(d.logPath).value();
    QVERIFY2(log.find("letting the epoch in progress finish") != std::string::npos, log.c_str());
    QVERIFY(log.find("Restarting from") != std::string::npos);
    QVERIFY(fs::exists(plan.runRoot + "/epochs/006/ckpt-info.json"));
}

void tst_SlurmBackend::stopCancelsTheJob()
{
    LaunchPlan plan = trainerPlan("RUN003", 1, 0, "auto");
    plan.argv = {"/bin/sh", "-c", "echo started; exec sleep 120"};
    auto record = m_launcher->launch(plan);
    QVERIFY(record);
    waitForState(plan.runRoot, RunState::Running, 30000);
    auto stopped = Launcher::stop(plan.runRoot, std::chrono::seconds(1));
    QVERIFY2(stopped, stopped ? "" : stopped.error().message.c_str());
    waitForState(plan.runRoot, RunState::Stopped, 30000);
    const LaunchAttempt d =
        LaunchRecord::load(LaunchRecord::pathFor(plan.runRoot)).value().attempts.back();
    QCOMPARE(d.slurmState, std::string("CANCELLED"));
    QVERIFY(!d.ended.empty());
    QTRY_VERIFY_WITH_TIMEOUT(SlurmClient::run("squeue", {"-h", "-j", d.jobId}).valueOr("x").empty(),
                             20000);
}

fs::path tst_SlurmBackend::trainLocally(const std::string& name, int epochs)
{
    qputenv("XDG_DATA_HOME", m_dir.filePath(QStringLiteral("xdg")).toUtf8());
    const fs::path folder = m_dir.path().toStdString() + "/" + name;
    test::trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), folder, (folder / "config.ini").string(),
                       "[Global_Params]\nepochs = 6\nlearning_rate = 0.01\n"
                       "samples_per_class = 40\nepoch_delay = 0.4\n",
                       {QStringLiteral("--epochs"), QString::number(epochs),
                        QStringLiteral("--epoch_delay"), QStringLiteral("0")});
    return folder;
}

QStringList tst_SlurmBackend::launchArgs(const fs::path& folder, const QString& options)
{
    return QStringList{QStringLiteral("launch"),
                       QString::fromStdString((folder / "ckpts").string())} +
           options.split(QLatin1Char(' ')) +
           QStringList{QStringLiteral("--config"),
                       QString::fromStdString((folder / "config.ini").string()),
                       QStringLiteral("--json")} +
           test::demoLaunchTemplate(QStringLiteral(CKPT_DEMO_TRAIN));
}

void tst_SlurmBackend::sweepIsOneJobArray()
{
    // A parent run trained locally, then `ckpt launch --sweep ... --backend slurm`.
    const fs::path folder = trainLocally("SWEEP", 2);
    const test::CliResult r = test::runCli(
        launchArgs(folder, QStringLiteral("--from 2 --sweep learning_rate=0.001,0.003,0.005 "
                                          "--parallel 2 --backend slurm --slurm-time 00:10:00 "
                                          "--slurm-cpus 1")),
        60000);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const auto runs = r.json().at("runs");
    QCOMPARE(runs.size(), std::size_t(3));
    // One array: the same array id, tasks 0, 1, 2.
    const std::string first = runs.at(0).at("job_id").get<std::string>();
    const std::string array = first.substr(0, first.find('_'));
    QVERIFY2(!array.empty() && first == array + "_0", first.c_str());
    std::vector<std::string> roots;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        QCOMPARE(runs.at(i).at("job_id").get<std::string>(), array + "_" + std::to_string(i));
        roots.push_back(runs.at(i).at("run").get<std::string>());
    }
    const std::string script =
        readFile(LaunchRecord::load(LaunchRecord::pathFor(roots[0])).value().latest()->scriptPath)
            .value();
    QVERIFY2(script.find("#SBATCH --array=0-2%2\n") != std::string::npos, script.c_str());
    // Task 1 requeued mid-run (as a preemption would): it resumes from `last`
    // under its own record, as a single job does.
    QTRY_VERIFY_WITH_TIMEOUT(fs::exists(fs::path(roots[1]) / "epochs/003/ckpt-info.json"), 30000);
    auto requeued = SlurmClient::run("scontrol", {"requeue", array + "_1"});
    QVERIFY2(requeued, requeued ? "" : requeued.error().message.c_str());
    releaseHold(array + "_1");
    for (const std::string& root : roots)
        waitForState(root, RunState::Completed, 90000);
    const LaunchAttempt again =
        LaunchRecord::load(LaunchRecord::pathFor(roots[1])).value().attempts.back();
    QCOMPARE(again.segments.size(), std::size_t{2});
    QCOMPARE(again.segments[0].state, RunState::Requeued);
    QCOMPARE(again.segments[1].restart, 1);
    QVERIFY(readFile(again.logPath).value().find("Restarting from") != std::string::npos);
    for (std::size_t i = 0; i < roots.size(); ++i) {
        const LaunchAttempt a =
            LaunchRecord::load(LaunchRecord::pathFor(roots[i])).value().attempts.back();
        QCOMPARE(a.jobId, array + "_" + std::to_string(i));
        QCOMPARE(a.slurmState, std::string("COMPLETED"));
        QCOMPARE(a.segments.size(), std::size_t(i == 1 ? 2 : 1));
        QVERIFY(a.plan.parent && a.plan.parent->epoch == 2);
        QVERIFY(fs::exists(fs::path(roots[i]) / "epochs/006/ckpt-info.json"));
        const std::string log = readFile(a.logPath).value();
        QVERIFY2(log.find("array task " + std::to_string(i)) != std::string::npos, log.c_str());
        QVERIFY2(log.find("Epoch 6/6") != std::string::npos, log.c_str());
    }
    // `ckpt runs` lists the three with their array job ids.
    const test::CliResult listed =
        test::runCli({QStringLiteral("runs"), QString::fromStdString(m_dir.path().toStdString()),
                      QStringLiteral("--json")});
    QVERIFY2(listed.exitCode == 0, listed.err.constData());
    std::set<std::string> ids;
    std::string seen;
    const nlohmann::json all = listed.json(); // kept alive for the loop
    for (const auto& run : all.at("runs")) {
        seen += run.at("job_id").dump() + " " + run.at("state").dump() + "; ";
        if (run.at("job_id").is_string() && run.at("state") == "completed")
            ids.insert(run.at("job_id").get<std::string>());
    }
    for (int i = 0; i < 3; ++i)
        QVERIFY2(ids.count(array + "_" + std::to_string(i)), seen.c_str());
}

void tst_SlurmBackend::sbatchRefusalUndoesTheRestart()
{
    const fs::path folder = trainLocally("REFUSED", 3);
    const fs::path root = folder / "ckpts";
    const fs::path lastBefore = fs::read_symlink(root / "last");
    const test::CliResult r = test::runCli(
        launchArgs(folder, QStringLiteral("--from 1 --set learning_rate=0.5 --backend slurm "
                                          "--slurm-partition no_such_partition")),
        60000);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("partition"), r.err.constData());
    QVERIFY2(r.err.contains("the restart was undone"), r.err.constData());
    QVERIFY(fs::exists(root / "epochs/002/ckpt-info.json"));
    QVERIFY(fs::exists(root / "epochs/003/ckpt-info.json"));
    QCOMPARE(fs::read_symlink(root / "last"), lastBefore);
    QVERIFY(!fs::exists(root / ".ckpt-studio/superseded"));
    QVERIFY(!fs::exists(LaunchRecord::pathFor(root)));
}

// `ckpt launch --backend slurm` killed -9 anywhere, around sbatch too: every
// job in the queue is named by its run's record (found by its script when the
// launcher died before writing the job id down), and an attempt for which no
// job was ever submitted settles as lost.
void tst_SlurmBackend::killedAroundSbatchLeavesNoJobUnnamed()
{
    const fs::path parent = trainLocally("KILLED", 2);
    const fs::path forks = fs::path(m_dir.path().toStdString()) / "killed-forks";
    const auto argsFor = [&](int i) {
        return launchArgs(parent, QStringLiteral("--from 2 --fork --into %1 --backend slurm "
                                                 "--sbatch=--hold --detach")
                                      .arg(QString::fromStdString(
                                          (forks / ("fork-" + std::to_string(i))).string())));
    };
    const auto rootOf = [&](int i) {
        const fs::path into = forks / ("fork-" + std::to_string(i));
        return fs::exists(into / "ckpts") ? into / "ckpts" : into;
    };
    // Jobs of ours in the queue whose batch script is under `root`.
    const auto queuedUnder = [](const fs::path& root) {
        std::vector<std::string> ids;
        auto out = SlurmClient::run("squeue", {"--me", "--noheader", "--format=%i|%o"});
        if (!out)
            return ids;
        std::istringstream in(*out);
        for (std::string line; std::getline(in, line);)
            if (const auto bar = line.find('|');
                bar != std::string::npos && line.find(root.string() + "/", bar) == bar + 1)
                ids.push_back(line.substr(0, bar));
        return ids;
    };
    std::vector<std::string> held;

    QElapsedTimer clock;
    clock.start();
    const test::CliResult full = test::runCli(argsFor(0), 60000);
    const qint64 fullUs = clock.nsecsElapsed() / 1000;
    QVERIFY2(full.exitCode == 0, full.err.constData());
    const auto whole = queuedUnder(rootOf(0));
    QCOMPARE(whole.size(), std::size_t(1));
    held.push_back(whole.front());

    std::mt19937 rng(20261124u);
    int killedMidway = 0, foundByScript = 0, lost = 0;
    const int iterations = 12;
    for (int i = 1; i <= iterations; ++i) {
        QProcess p;
        p.setProgram(test::cliPath());
        p.setArguments(argsFor(i));
        p.setStandardOutputFile(QProcess::nullDevice());
        p.setStandardErrorFile(QProcess::nullDevice());
        // Half the kills aim at the last third, where sbatch runs and the id is saved.
        const qint64 from = i % 2 ? fullUs * 2 / 3 : fullUs / 4;
        const qint64 waitUs = std::uniform_int_distribution<qint64>(from, fullUs * 11 / 10)(rng);
        p.start();
        QVERIFY(p.waitForStarted());
        QThread::usleep(static_cast<unsigned long>(waitUs));
        killedMidway += p.state() == QProcess::Running;
        p.kill();
        QVERIFY(p.waitForFinished(10000));
        // An sbatch the killed ckpt had started goes on by itself (it may
        // still queue the job): wait until it has ended. Killed between fork
        // and exec, the child is still a copy of ckpt that is about to become
        // sbatch: any process naming the fork's folder counts.
        const std::string forkDir = (forks / ("fork-" + std::to_string(i))).string();
        const auto sbatchRunning = [&] {
            for (const std::string& line : test::runningCommandLines())
                for (auto at = line.find(forkDir); at != std::string::npos;
                     at = line.find(forkDir, at + 1)) {
                    const std::size_t end = at + forkDir.size(); // not fork-1 in fork-12
                    if (end == line.size() || line[end] == '/' || line[end] == ' ')
                        return true;
                }
            return false;
        };
        // sbatch waits for slurmctld, which took over 30 s once under a loaded ASan run.
        QTRY_VERIFY_WITH_TIMEOUT(!sbatchRunning(), 90000);

        const fs::path root = rootOf(i);
        const QByteArray where = "iteration " + QByteArray::number(i) + ", killed after " +
                                 QByteArray::number(waitUs) + " us of " +
                                 QByteArray::number(fullUs);
        const auto queued = queuedUnder(root);
        held.insert(held.end(), queued.begin(), queued.end());
        QVERIFY2(queued.size() <= 1, where.constData());
        std::error_code ec;
        if (!fs::exists(LaunchRecord::pathFor(root), ec)) {
            QVERIFY2(queued.empty(), (where + ": a queued job that no record names").constData());
            continue;
        }
        auto before = LaunchRecord::load(LaunchRecord::pathFor(root));
        QVERIFY2(before, where.constData());
        auto record = Launcher::refresh(root);
        QVERIFY2(record,
                 (where + ": " + (record ? "" : record.error().message.c_str())).constData());
        QVERIFY2(!record->attempts.empty(), where.constData());
        const LaunchAttempt& attempt = record->attempts.back();
        if (!queued.empty()) {
            QVERIFY2(attempt.jobId == queued.front(),
                     (where + ": queued job " + queued.front().c_str() + ", record says '" +
                      attempt.jobId.c_str() + "'")
                         .constData());
            foundByScript += before->attempts.back().jobId.empty();
            continue;
        }
        // Recorded, never submitted: lost once a minute has passed.
        QVERIFY2(attempt.jobId.empty(), where.constData());
        before->attempts.back().submitted = isoFromUnix(QDateTime::currentSecsSinceEpoch() - 3600);
        QVERIFY(before->save());
        auto settled = Launcher::refresh(root);
        QVERIFY(settled);
        QCOMPARE(settled->attempts.back().state, RunState::Lost);
        ++lost;
    }
    for (const std::string& id : held)
        (void)SlurmClient::cancel(id);
    qInfo("%d of %d kills landed while ckpt ran; %d jobs found by their script, %d attempts "
          "lost before sbatch",
          killedMidway, iterations, foundByScript, lost);
    QVERIFY(killedMidway > 0);
}

QTEST_GUILESS_MAIN(tst_SlurmBackend)
#include "tst_SlurmBackend.moc"
