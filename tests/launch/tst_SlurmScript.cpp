#include "candle/CandleResume.h"
#include "launch/SlurmBackend.h"
#include "launch/SlurmBatchScript.h"
#include "launch/SlurmClient.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;

class tst_SlurmScript : public QObject
{
    Q_OBJECT

private slots:
    void parseScontrol_data();
    void parseScontrol();
    void parseSacctTakesLastRecord();
    void stateMapping_data();
    void stateMapping();
    void scriptHasPreemptionSafety();
    void scriptIsValidBash();
    void arrayScriptRunsEachTaskInItsOwnRun();
    void timeFormats_data();
    void timeFormats();
    void formProblemsNameTheField();
};

void tst_SlurmScript::parseScontrol_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<int>("restarts");
    QTest::addColumn<int>("exitCode");
    QTest::newRow("completed")
        << "JobId=12 JobName=wrap UserId=root(0) JobState=COMPLETED Reason=None Requeue=1 "
           "Restarts=0 BatchFlag=1 ExitCode=0:0 RunTime=00:00:02\n"
        << "COMPLETED"
        << "None" << 0 << 0;
    QTest::newRow("requeued and held")
        << "JobId=13 JobName=run JobState=PENDING Reason=BeginTime Dependency=(null) Requeue=1 "
           "Restarts=1 BatchFlag=1 ExitCode=0:15"
        << "PENDING"
        << "BeginTime" << 1 << 0;
    QTest::newRow("failed")
        << "JobId=14 JobState=FAILED Reason=NonZeroExitCode Restarts=0 ExitCode=3:0"
        << "FAILED"
        << "NonZeroExitCode" << 0 << 3;
}

void tst_SlurmScript::parseScontrol()
{
    QFETCH(QString, text);
    QFETCH(QString, state);
    QFETCH(QString, reason);
    QFETCH(int, restarts);
    QFETCH(int, exitCode);
    auto info = SlurmClient::parseScontrol(text.toStdString());
    QVERIFY(info);
    QCOMPARE(QString::fromStdString(info->state), state);
    QCOMPARE(QString::fromStdString(info->reason), reason);
    QCOMPARE(info->restarts, restarts);
    QCOMPARE(info->exitCode.value_or(-1), exitCode);
    QCOMPARE(info->source, std::string("scontrol"));
    QVERIFY(!SlurmClient::parseScontrol("slurm_load_jobs error: Invalid job id specified"));
}

void tst_SlurmScript::parseSacctTakesLastRecord()
{
    // The jobcomp file gets a PENDING record at each requeue, the final state at the end.
    const char* text = "7|PENDING|0:0\n8|COMPLETED|0:0\n7|PENDING|0:0\n7|CANCELLED by 0|0:15\n";
    auto info = SlurmClient::parseSacct(text, "7");
    QVERIFY(info);
    QCOMPARE(info->state, std::string("CANCELLED"));
    QCOMPARE(info->exitSignal.value_or(-1), 15);
    QVERIFY(!SlurmClient::parseSacct(text, "9"));
}

void tst_SlurmScript::stateMapping_data()
{
    QTest::addColumn<QString>("slurm");
    QTest::addColumn<int>("state");
    QTest::newRow("pending") << "PENDING" << int(RunState::Pending);
    QTest::newRow("requeue hold") << "REQUEUE_HOLD" << int(RunState::Pending);
    QTest::newRow("running") << "RUNNING" << int(RunState::Running);
    QTest::newRow("completing") << "COMPLETING" << int(RunState::Running);
    QTest::newRow("completed") << "COMPLETED" << int(RunState::Completed);
    QTest::newRow("cancelled") << "CANCELLED" << int(RunState::Stopped);
    QTest::newRow("preempted") << "PREEMPTED" << int(RunState::Stopped);
    QTest::newRow("timeout") << "TIMEOUT" << int(RunState::Failed);
    QTest::newRow("node fail") << "NODE_FAIL" << int(RunState::Failed);
    QTest::newRow("oom") << "OUT_OF_MEMORY" << int(RunState::Failed);
}

void tst_SlurmScript::stateMapping()
{
    QFETCH(QString, slurm);
    QFETCH(int, state);
    QCOMPARE(int(SlurmBackend::stateFromSlurm(slurm.toStdString())), state);
}

namespace {

LaunchPlan samplePlan()
{
    LaunchPlan plan;
    plan.runRoot = "/scratch/exp/RUN 1/ckpts";
    plan.name = "RUN 1";
    plan.workingDir = "/scratch/exp/RUN 1";
    plan.argv = {"python3", "nt3.py",    "--config_file", "/scratch/exp/RUN 1/c.ini",
                 "--note",  "it's $HOME"};
    plan.environment = {{"OMP_NUM_THREADS", "4"}};
    plan.backend = LaunchPlan::Backend::Slurm;
    plan.slurm.partition = "gpu";
    plan.slurm.time = "01:00:00";
    plan.slurm.cpusPerTask = 8;
    plan.slurm.gpus = 1;
    plan.slurm.memory = "16G";
    plan.slurm.account = "proj42";
    plan.slurm.extraLines = {"--qos=low", "#SBATCH --exclusive"};
    plan.slurm.signalGraceSeconds = 90;
    plan.slurm.lastLink = "/scratch/exp/RUN 1/ckpts/last";
    plan.slurm.requeueArguments = CandleResume::instance().requeueArguments();
    return plan;
}

LaunchAttempt sampleAttempt()
{
    LaunchAttempt a;
    a.index = 2;
    a.logPath = "/scratch/exp/RUN 1/ckpts/.ckpt-studio/launch/attempt-2.log";
    a.eventsPath = "/scratch/exp/RUN 1/ckpts/.ckpt-studio/launch/attempt-2.events";
    return a;
}

} // namespace

void tst_SlurmScript::scriptHasPreemptionSafety()
{
    const std::string s = SlurmBatchScript::render(samplePlan(), sampleAttempt());
    for (const char* line :
         {"#!/bin/bash\n",
          "#SBATCH --job-name=\"RUN 1\"\n",
          "#SBATCH --output=\"/scratch/exp/RUN 1/ckpts/.ckpt-studio/launch/attempt-2.log\"\n",
          "#SBATCH --open-mode=append\n",
          "#SBATCH --requeue\n",
          "#SBATCH --signal=B:USR1@90\n",
          "#SBATCH --chdir=\"/scratch/exp/RUN 1\"\n",
          "#SBATCH --partition=gpu\n",
          "#SBATCH --time=01:00:00\n",
          "#SBATCH --nodes=1\n",
          "#SBATCH --cpus-per-task=8\n",
          "#SBATCH --gpus=1\n",
          "#SBATCH --mem=16G\n",
          "#SBATCH --account=proj42\n",
          "#SBATCH --qos=low\n",
          "#SBATCH --exclusive\n",
          "args=(python3 nt3.py --config_file '/scratch/exp/RUN 1/c.ini' --note 'it'\\''s "
          "$HOME')\n",
          "if [ \"$restart\" -gt 0 ]; then args+=(--ckpt_restart_mode auto); fi\n",
          "export OMP_NUM_THREADS=4\n",
          "trap on_usr1 USR1\n",
          "\"${args[@]}\" &\n",
          "scontrol requeue \"$SLURM_JOB_ID\"\n"})
        QVERIFY2(s.find(line) != std::string::npos, line);
    // Every #SBATCH line precedes the first command (sbatch stops reading there).
    const auto lastSbatch = s.rfind("#SBATCH");
    const auto firstCommand = s.find("\nev=");
    QVERIFY(lastSbatch < firstCommand);
}

void tst_SlurmScript::scriptIsValidBash()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("job.sbatch"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(SlurmBatchScript::render(samplePlan(), sampleAttempt())));
    f.close();
    QProcess bash;
    bash.start(QStringLiteral("bash"), {QStringLiteral("-n"), path});
    QVERIFY(bash.waitForFinished(10000));
    QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());
}

void tst_SlurmScript::arrayScriptRunsEachTaskInItsOwnRun()
{
    std::vector<LaunchPlan> plans;
    std::vector<LaunchAttempt> attempts;
    for (const char* v : {"0.001", "0.003", "0.005"}) {
        LaunchPlan p = samplePlan();
        const std::string folder = std::string("/scratch/exp/RUN 1-fork-e003-lr-") + v;
        p.runRoot = folder + "/ckpts";
        p.workingDir = folder;
        p.argv = {"python3", "nt3.py", "--learning_rate", v};
        p.slurm.lastLink = p.runRoot + "/last";
        LaunchAttempt a;
        a.logPath = p.runRoot + "/.ckpt-studio/launch/attempt-1.log";
        a.eventsPath = p.runRoot + "/.ckpt-studio/launch/attempt-1.events";
        plans.push_back(p);
        attempts.push_back(a);
    }
    const std::string s = SlurmBatchScript::renderArray(plans, attempts, 2, "/tmp/slurm-%A_%a.out");
    for (const char* line :
         {"#SBATCH --array=0-2%2\n", "#SBATCH --output=/tmp/slurm-%A_%a.out\n",
          "#SBATCH --requeue\n", "#SBATCH --signal=B:USR1@90\n",
          "case \"${SLURM_ARRAY_TASK_ID:-}\" in\n", "2)\n",
          "  args=(python3 nt3.py --learning_rate 0.005)\n",
          "  last='/scratch/exp/RUN 1-fork-e003-lr-0.003/ckpts/last'\n", "exec >>\"$log\" 2>&1\n",
          "scontrol requeue \"$SLURM_JOB_ID\"\n",
          "if [ \"$restart\" -gt 0 ]; then args+=(--ckpt_restart_mode auto); fi\n"})
        QVERIFY2(s.find(line) != std::string::npos, line);
    QVERIFY(s.rfind("#SBATCH") < s.find("\ncase "));
    // No cap when K covers every task.
    QVERIFY(SlurmBatchScript::renderArray(plans, attempts, 3, "o").find("--array=0-2\n") !=
            std::string::npos);
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("array.sbatch")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(s));
    f.close();
    QProcess bash;
    bash.start(QStringLiteral("bash"), {QStringLiteral("-n"), f.fileName()});
    QVERIFY(bash.waitForFinished(10000));
    QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());
}

void tst_SlurmScript::timeFormats_data()
{
    QTest::addColumn<QString>("time");
    QTest::addColumn<bool>("valid");
    for (const char* ok : {"30", "30:00", "01:00:00", "2-00", "2-12:30", "1-00:00:00", "90:00:00"})
        QTest::newRow(ok) << QString::fromLatin1(ok) << true;
    for (const char* bad :
         {"1:2:3:4", "abc", "1h", "01:60:00", "-5", "1-", ":30", "1-2:3:4:5", "10:61"})
        QTest::newRow(bad) << QString::fromLatin1(bad) << false;
}

void tst_SlurmScript::timeFormats()
{
    QFETCH(QString, time);
    QFETCH(bool, valid);
    QCOMPARE(SlurmOptions::isValidTime(time.toStdString()), valid);
}

void tst_SlurmScript::formProblemsNameTheField()
{
    QVERIFY(samplePlan().slurm.problems().empty());
    SlurmOptions o;
    o.time = "1:2:3:4";
    o.memory = "lots";
    o.partition = "gpu debug";
    o.extraLines = {"qos=low", "#SBATCH --exclusive"};
    const auto problems = o.problems();
    QCOMPARE(problems.size(), std::size_t(4));
    QVERIFY(problems[0].find("time limit '1:2:3:4'") == 0);
    QVERIFY(problems[1].find("memory 'lots'") == 0);
    QVERIFY(problems[2].find("partition") == 0);
    QVERIFY(problems[3].find("extra line 'qos=low'") == 0);
    QVERIFY(SlurmOptions::isValidMemory("500m") && SlurmOptions::isValidMemory("4096"));
}

QTEST_GUILESS_MAIN(tst_SlurmScript)
#include "tst_SlurmScript.moc"
