#include "CandleFixture.h"
#include "DemoRun.h"
#include "ProcessRunner.h"
#include "ShellScript.h"
#include "SshServer.h"
#include "modelfile/WeightsDiff.h"
#include "remote/RemoteCkpt.h"
#include "remote/RemoteWatch.h"
#include "remote/SshMultiplex.h"
#include "report/Protocol.h"
#include "report/RunJson.h"
#include "scan/Scanner.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {

// Far `ckpt` processes whose command line names `needle` (each started by
// sshd for this test).
int farCkptCount(const std::string& command, const std::string& needle)
{
    int n = 0;
    for (const std::string& line : runningCommandLines())
        if (line.find(CKPT_CLI_PATH " " + command) == 0 && line.find(needle) != std::string::npos)
            ++n;
    return n;
}

} // namespace

// The remote client against a real sshd on loopback and the real `ckpt` of
// this build on the "far side" (the same machine, reached only through ssh).
class TestRemoteCkpt : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Our master sockets go here (a private, short runtime folder).
        QVERIFY(m_runtime.isValid());
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_runtime.path()));
        m_server = std::make_unique<SshServer>();
        QVERIFY2(m_server->ok(), m_server->error().c_str());
        QVERIFY(m_tmp.isValid());
        // Spaces and quotes in the far path: every argument is quoted for the far shell.
        m_far = fs::path(m_tmp.path().toStdString()) / "far side" / "it's \"demo\"";
        for (const char* run : {"RUN000", "RUN001"})
            trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), m_far / "EXP000" / run,
                         (m_far / "EXP000" / run / "config.ini").string(),
                         "[Global_Params]\nepochs = 4\nlearning_rate = 0.01\n"
                         "samples_per_class = 40\nckpt_checksum = True\n");
        m_run = m_far / "EXP000" / "RUN000" / "ckpts";
    }
    void cleanupTestCase()
    {
        stopMaster(SshMultiplex::plan(options().ssh, target()));
        m_server.reset();
    }

    void probeNamesVersionAndProtocol()
    {
        auto v = remote().probe();
        QVERIFY2(v, v ? "" : v.error().message.c_str());
        QCOMPARE(v->protocol, kCliProtocol);
        QVERIFY(!v->version.empty());
    }

    void openingADemoGivesTheLocalScan()
    {
        QElapsedTimer timer;
        timer.start();
        std::vector<std::string> streamed;
        qint64 firstMs = -1;
        auto far = remote().scan(m_far.string(), {}, [&](const Run& run, const std::string& live) {
            if (firstMs < 0)
                firstMs = timer.elapsed();
            streamed.push_back(run.root);
            QVERIFY(!live.empty());
        });
        QVERIFY2(far, far ? "" : far.error().message.c_str());
        qInfo("remote scan of %zu runs: first run after %lld ms, all after %lld ms",
              far->runs.size(), static_cast<long long>(firstMs),
              static_cast<long long>(timer.elapsed()));
        // Each run was handed over as it came (as loaded), the same runs; the
        // result holds them in a local scan's order.
        QCOMPARE(streamed.size(), far->runs.size());
        std::sort(streamed.begin(), streamed.end());
        for (std::size_t i = 0; i < streamed.size(); ++i)
            QCOMPARE(streamed[i], far->runs[i].root);
        auto local = Scanner::scan(m_far);
        QVERIFY(local);
        QCOMPARE(far->runs.size(), std::size_t(2));
        QCOMPARE(far->runs.size(), local->runs.size());
        for (std::size_t i = 0; i < local->runs.size(); ++i) {
            QCOMPARE(far->runs[i].root, local->runs[i].root);
            QCOMPARE(RunJson::toJson(far->runs[i]).dump(), RunJson::toJson(local->runs[i]).dump());
            QVERIFY(!far->liveness[i].empty());
        }
        auto history = remote().history(m_run.string());
        QVERIFY2(history, history ? "" : history.error().message.c_str());
        QCOMPARE((*history)["rows"].size(), std::size_t(4));
    }

    // Calls share one master connection: the sshd sees one connection for
    // several calls, and `ssh -O check` answers.
    void callsShareOneConnection()
    {
        const SshMultiplex::Plan plan = SshMultiplex::plan(options().ssh, target());
        QVERIFY2(!plan.controlPath.isEmpty(), qPrintable(plan.reason));
        QVERIFY(plan.controlPath.startsWith(m_runtime.path()));
        stopMaster(plan);
        QTRY_COMPARE_WITH_TIMEOUT(m_server->connectionPids().size(), std::size_t(0), 30000);
        for (int i = 0; i < 3; ++i)
            QVERIFY(remote().probe());
        QVERIFY(remote().scan(m_run.string()));
        QCOMPARE(m_server->connectionPids().size(), std::size_t(1));
        QVERIFY(SshMultiplex::masterPid(options().ssh, target(), plan) > 0);
        QCOMPARE(SshMultiplex::check(options().ssh, target(), plan, 5000),
                 SshMultiplex::Master::Alive);
        // The watch runs over it too.
        RemoteWatch watch(target(), options());
        watch.start();
        QTRY_COMPARE_WITH_TIMEOUT(watch.state(), RemoteWatch::State::Connected, 30000);
        QVERIFY(remote().probe());
        QCOMPARE(m_server->connectionPids().size(), std::size_t(1));
    }

    // A master killed (SIGKILL leaves its socket behind) or hung (SIGSTOP: the
    // socket takes connections but never answers) costs the next call a new
    // connection, never a failure or a hang.
    void aDeadOrHungMasterIsBypassed_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("killed") << int(SIGKILL);
        QTest::newRow("hung") << int(SIGSTOP);
    }
    void aDeadOrHungMasterIsBypassed()
    {
        QFETCH(int, signal);
        const SshMultiplex::Plan plan = SshMultiplex::plan(options().ssh, target());
        QVERIFY(remote().probe());
        const int master = SshMultiplex::masterPid(options().ssh, target(), plan);
        QVERIFY(master > 0);
        QCOMPARE(::kill(master, signal), 0);
        QVERIFY(fs::exists(plan.controlPath.toStdString()));
        QElapsedTimer timer;
        timer.start();
        auto v = remote().probe();
        QVERIFY2(v, v ? "" : v.error().message.c_str());
        qInfo("call after the master was %s: %lld ms", signal == SIGKILL ? "killed" : "stopped",
              static_cast<long long>(timer.elapsed()));
        QVERIFY(remote().scan(m_run.string()));
        // A new master serves the calls after it.
        QTRY_VERIFY_WITH_TIMEOUT(SshMultiplex::masterPid(options().ssh, target(), plan) > 0, 10000);
        QVERIFY(SshMultiplex::masterPid(options().ssh, target(), plan) != master);
        if (signal == SIGSTOP)
            ::kill(master, SIGKILL);
    }

    // The user's ssh config decides: ControlMaster no means no master; their
    // own ControlPath is the one used; nothing set means ours.
    void theUsersMultiplexingIsRespected_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("socket"); // the socket a call leaves, "" none
        QTest::newRow("ControlMaster no") << "  ControlMaster no\n"
                                          << "";
        QTest::newRow("their own master")
            << "  ControlMaster auto\n  ControlPath %1/theirs-%C\n  ControlPersist 30\n"
            << "theirs";
        QTest::newRow("in an included file") << "  Include %1/included.conf\n"
                                             << "";
    }
    void theUsersMultiplexingIsRespected()
    {
        QFETCH(QString, config);
        QFETCH(QString, socket);
        const QString dir = m_runtime.path() + QStringLiteral("/user");
        QDir().mkpath(dir);
        QFile in(m_server->configFile());
        QVERIFY(in.open(QIODevice::ReadOnly));
        // The lines go into the test server's Host block.
        const QString text =
            QString::fromUtf8(in.readAll()) + (config.contains("%1") ? config.arg(dir) : config);
        CandleFixture::writeText((dir + "/ssh_config").toStdString(), text.toStdString());
        CandleFixture::writeText((dir + "/included.conf").toStdString(),
                                 "Host ckpt-test\n  ControlMaster=no\n");
        RemoteOptions options = this->options();
        options.ssh = {QStringLiteral("ssh"), QStringLiteral("-F"), dir + "/ssh_config"};
        const SshMultiplex::Plan plan = SshMultiplex::plan(options.ssh, target());
        QVERIFY2(plan.options.isEmpty(), qPrintable(plan.options.join(' ')));
        QVERIFY(!plan.reason.isEmpty());
        const RemoteCkpt client(target(), options);
        QVERIFY(!client.sshCommand({}).join(' ').contains("ckpt-ssh-"));
        QVERIFY(client.probe());
        QVERIFY(client.probe());
        const QStringList left = QDir(dir).entryList(QDir::System);
        if (socket.isEmpty()) {
            QVERIFY2(left.isEmpty(), qPrintable(left.join(' ')));
        } else {
            QCOMPARE(left.size(), 1);
            QVERIFY(left.first().startsWith(socket));
            QProcess::execute("ssh", options.ssh.mid(1) + QStringList{"-O", "exit", "ckpt-test"});
        }
    }

    // A far ckpt from before `scan --stream` is asked again without it.
    void anOlderCkptWithoutStreamIsAskedAgain()
    {
        const fs::path script = fs::path(m_tmp.path().toStdString()) / "bin" / "nostream-ckpt";
        fs::create_directories(script.parent_path());
        writeShellScript(script,
                         "for a in \"$@\"; do [ \"$a\" = --stream ] && "
                         "{ echo \"ckpt scan: Unknown option 'stream'.\" >&2; exit 2; }; done\n"
                         "exec " CKPT_CLI_PATH " \"$@\"\n");
        RemoteOptions options = this->options();
        options.ckpt = script.string();
        std::size_t handed = 0;
        auto far = RemoteCkpt(target(), options)
                       .scan(m_far.string(), {}, [&](const Run&, const std::string&) { ++handed; });
        QVERIFY2(far, far ? "" : far.error().message.c_str());
        QCOMPARE(far->runs.size(), std::size_t(2));
        QCOMPARE(handed, std::size_t(2));
    }

    // A bare `ckpt` missing from the far PATH of a non-interactive ssh shell is
    // found where scripts/install-remote.sh puts it; when it is nowhere, the
    // message lists every place looked at.
    void bareCkptIsFoundWhereTheInstallerPutsIt()
    {
        const fs::path bin = fs::path(m_tmp.path().toStdString()) / "installed" / "bin";
        fs::create_directories(bin);
        writeShellScript(bin / "ckpt", "exec " CKPT_CLI_PATH " \"$@\"\n");
        RemoteOptions options = this->options();
        options.ckpt = "ckpt-on-no-path"; // a bare name nobody's PATH has
        options.ckptFallbacks = {(bin / "missing").string(), (bin / "ckpt").string()};
        auto version = RemoteCkpt(target(), options).probe();
        QVERIFY2(version, version ? "" : version.error().message.c_str());
        QCOMPARE(version->protocol, kCliProtocol);

        options.ckptFallbacks = {(bin / "missing").string()};
        const auto outcome = RemoteCkpt(target(), options).run({QStringLiteral("version")});
        QCOMPARE(int(outcome.failure), int(RemoteFailure::CkptMissing));
        QVERIFY2(outcome.message.find("'ckpt-on-no-path' on the PATH, " +
                                      (bin / "missing").string()) != std::string::npos,
                 outcome.message.c_str());
    }

    void failuresSayWhatToDo_data()
    {
        QTest::addColumn<QString>("setup");
        QTest::addColumn<int>("failure");
        QTest::addColumn<QString>("needle");
        QTest::newRow("wrong port (unreachable)")
            << "port" << int(RemoteFailure::Unreachable) << "Cannot reach";
        QTest::newRow("ckpt path wrong")
            << "missing" << int(RemoteFailure::CkptMissing) << "install-remote.sh";
        QTest::newRow("ckpt not executable")
            << "noexec" << int(RemoteFailure::CkptMissing) << "cannot be run";
        QTest::newRow("ckpt printing protocol 0")
            << "old" << int(RemoteFailure::ProtocolMismatch) << "too old";
        QTest::newRow("ckpt without a version command")
            << "older" << int(RemoteFailure::ProtocolMismatch) << "too old";
        QTest::newRow("ckpt of a newer protocol")
            << "newer" << int(RemoteFailure::ProtocolMismatch) << "Update Ckpt Studio";
        QTest::newRow("unknown user (permission denied)")
            << "user" << int(RemoteFailure::Denied) << "refused the login";
    }
    void failuresSayWhatToDo()
    {
        QFETCH(QString, setup);
        QFETCH(int, failure);
        QFETCH(QString, needle);
        RemoteTarget target = this->target();
        RemoteOptions options = this->options();
        const fs::path bin = fs::path(m_tmp.path().toStdString()) / "bin";
        fs::create_directories(bin);
        if (setup == QLatin1String("port")) {
            // Straight to 127.0.0.1 on a port nobody listens on, past the config's Host.
            target.host = "127.0.0.1";
            target.port = SshServer::freePort();
        } else if (setup == QLatin1String("missing")) {
            options.ckpt = (bin / "no-such-ckpt").string();
        } else if (setup == QLatin1String("noexec")) {
            CandleFixture::writeText(bin / "noexec-ckpt", "not a program\n");
            options.ckpt = (bin / "noexec-ckpt").string();
        } else if (setup == QLatin1String("old")) {
            writeShellScript(bin / "old-ckpt", "echo '{\"protocol\": 0, \"version\": \"0.9\"}'\n");
            options.ckpt = (bin / "old-ckpt").string();
        } else if (setup == QLatin1String("older")) {
            writeShellScript(
                bin / "older-ckpt",
                "echo \"ckpt: unknown command '$1'. Try 'ckpt --help'.\" >&2\nexit 2\n");
            options.ckpt = (bin / "older-ckpt").string();
        } else if (setup == QLatin1String("newer")) {
            writeShellScript(bin / "newer-ckpt",
                             "echo '{\"protocol\": 99, \"version\": \"9.0\"}'\n");
            options.ckpt = (bin / "newer-ckpt").string();
        } else if (setup == QLatin1String("user")) {
            target.user = "no-such-user-ckpt";
        }
        const RemoteCkpt client(target, options);
        const auto outcome = client.run({QStringLiteral("version")});
        QCOMPARE(int(outcome.failure), failure);
        QVERIFY2(QString::fromStdString(outcome.message).contains(needle), outcome.message.c_str());
        auto probe = client.probe();
        QVERIFY(!probe);
        QCOMPARE(probe.error().message, outcome.message);
        // The scan (parsed as it streams) says the same.
        auto scan = client.scan(m_far.string());
        QVERIFY(!scan);
        QVERIFY2(QString::fromStdString(scan.error().message).contains(needle),
                 scan.error().message.c_str());
    }

    void aMissingFarFolderIsRefusedWithCkptsWords()
    {
        auto scan = remote().scan((m_far / "nope").string());
        QVERIFY(!scan);
        QVERIFY2(QString::fromStdString(scan.error().message).contains("nope"),
                 scan.error().message.c_str());
    }

    // inspect and prune go through the generic run(): only results travel.
    void otherCommandsAnswerInJson()
    {
        const auto inspect =
            remote().run({QStringLiteral("inspect"),
                          QString::fromStdString((m_run / "epochs" / "001").string())});
        QVERIFY2(inspect.failure == RemoteFailure::None, inspect.message.c_str());
        QCOMPARE(inspect.json["protocol"].get<int>(), kCliProtocol);
        QVERIFY2(inspect.json.contains("file"), inspect.json.dump().c_str());
        const auto prune =
            remote().run({QStringLiteral("prune"), QString::fromStdString(m_run.string()),
                          QStringLiteral("--keep-limit"), QStringLiteral("1")});
        QVERIFY2(prune.failure == RemoteFailure::None, prune.message.c_str());
        QVERIFY(prune.json["dry_run"].get<bool>());
        QVERIFY(fs::exists(m_run / "epochs" / "001")); // a dry run changed nothing
    }

    // The experiment manager over ssh, the local backend on the far side: the
    // parameters read there, a dry run, a restart and a fork of a demo run
    // launched there (detached), both seen through `runs` and `lineage`, a
    // long run stopped, and refusals with the far ckpt's reason.
    void launchesRestartAndForkOnTheFarSide()
    {
        const fs::path tmp(m_tmp.path().toStdString());
        // The far launches keep their registry in a folder of this test.
        const fs::path wrapper = tmp / "bin" / "ckpt-with-registry";
        fs::create_directories(wrapper.parent_path());
        const std::string data = (tmp / "far-data").string();
        writeShellScript(wrapper, "XDG_DATA_HOME='" + data + "' exec " CKPT_CLI_PATH " \"$@\"\n");
        RemoteOptions options = this->options();
        options.ckpt = wrapper.string();
        const RemoteCkpt client(target(), options);
        // A far folder of its own: the launches add runs.
        const fs::path far = tmp / "launch side";
        const fs::path parentDir = far / "EXP000" / "RUN001";
        trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), parentDir,
                     (parentDir / "config.ini").string(),
                     "[Global_Params]\nepochs = 4\nlearning_rate = 0.01\n"
                     "samples_per_class = 40\nckpt_checksum = True\n");
        const std::string run = (parentDir / "ckpts").string();

        // Not launched by Ckpt Studio: the one CANDLE config in its folder is
        // its parameter file, or one named once (below) when there are several.
        auto beside = client.params(run);
        QVERIFY2(beside, beside ? "" : beside.error().message.c_str());
        QCOMPARE(beside->file, (parentDir / "config.ini").string());
        {
            std::ofstream((parentDir / "other.ini").string()) << "[Global_Params]\nepochs = 9\n";
            auto unnamed = client.params(run);
            QVERIFY(!unnamed);
            QVERIFY2(QString::fromStdString(unnamed.error().message).contains("--config"),
                     unnamed.error().message.c_str());
            fs::remove(parentDir / "other.ini");
        }
        auto params = client.params(run, (parentDir / "config.ini").string());
        QVERIFY2(params, params ? "" : params.error().message.c_str());
        QCOMPARE(params->file, (parentDir / "config.ini").string());
        const auto lr = std::find_if(params->parameters.begin(), params->parameters.end(),
                                     [](const RemoteParam& p) { return p.key == "learning_rate"; });
        QVERIFY(lr != params->parameters.end());
        QCOMPARE(lr->literal, std::string("0.01"));
        QCOMPARE(lr->section, std::string("Global_Params"));

        RemoteLaunchRequest request;
        request.run = run;
        request.from = 2;
        request.config = (parentDir / "config.ini").string();
        request.sets = {"learning_rate=0.001"};
        for (const QString& word : demoLaunchTemplate(QStringLiteral(CKPT_DEMO_TRAIN)).mid(1))
            request.commandTemplate.push_back(word.toStdString());
        request.dryRun = true;
        auto planned = client.launch(request);
        QVERIFY2(planned, planned ? "" : planned.error().message.c_str());
        QCOMPARE(planned->state, std::string("planned"));
        QVERIFY(fs::exists(parentDir / "ckpts" / "epochs" / "004")); // nothing changed
        // What the window previews: the plan in words and the template it expands.
        QVERIFY2(planned->plan.find("learning_rate: 0.01 -> 0.001") != std::string::npos,
                 planned->plan.c_str());
        QVERIFY2(planned->plan.find("epochs 3, 4") != std::string::npos, planned->plan.c_str());
        QVERIFY(planned->commandTemplate.find("{config}") != std::string::npos);
        QVERIFY(planned->batchScript.empty()); // local backend
        RemoteLaunchRequest onSlurm = request;
        onSlurm.backend = LaunchPlan::Backend::Slurm;
        onSlurm.slurm.time = "00:10:00";
        auto script = client.launch(onSlurm);
        QVERIFY2(script, script ? "" : script.error().message.c_str());
        QVERIFY2(script->batchScript.find("#SBATCH --time=00:10:00") != std::string::npos,
                 script->batchScript.c_str());

        request.dryRun = false;
        auto restarted = client.launch(request);
        QVERIFY2(restarted, restarted ? "" : restarted.error().message.c_str());
        QCOMPARE(restarted->mode, std::string("restart"));
        QCOMPARE(restarted->from, 2);
        QVERIFY(!restarted->supersededDir.empty());
        QVERIFY(fs::exists(restarted->supersededDir));

        RemoteLaunchRequest fork = request;
        fork.mode = LaunchPlan::Mode::Fork;
        fork.sets = {"learning_rate=0.02"};
        auto forked = client.launch(fork);
        QVERIFY2(forked, forked ? "" : forked.error().message.c_str());
        QCOMPARE(forked->mode, std::string("fork"));
        QVERIFY(forked->run != restarted->run);

        // Both run to completion on the far side and are listed there.
        const auto stateOf = [&](const std::string& root) {
            auto listed = client.runs(far.string());
            if (!listed)
                return listed.error().message;
            for (const RemoteLaunchedRun& r : *listed)
                if (r.run == root)
                    return r.state;
            return std::string("not listed");
        };
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(restarted->run), std::string("completed"), 60000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(forked->run), std::string("completed"), 60000);
        auto listed = client.runs(far.string());
        QVERIFY(listed);
        for (const RemoteLaunchedRun& r : *listed)
            if (r.run == forked->run) {
                QCOMPARE(r.mode, std::string("fork"));
                QCOMPARE(r.backend, std::string("local"));
                QCOMPARE(r.parentEpoch, std::optional<int>(2));
            }
        auto scanned = client.scan(far.string());
        QVERIFY(scanned);
        QCOMPARE(scanned->runs.size(), std::size_t(2)); // the parent and its fork
        for (const Run& r : scanned->runs)              // each trained up to epoch 4 again
            QCOMPARE(r.epochs.back().number, 4);

        auto tree = client.lineage(run);
        QVERIFY2(tree, tree ? "" : tree.error().message.c_str());
        bool forkShown = false;
        for (const RemoteLineageEdge& e : tree->descendants)
            if (e.child == forked->run) {
                forkShown = true;
                QCOMPARE(e.epoch, 2);
                QCOMPARE(e.mode, std::string("fork"));
                QVERIFY(!e.changes.empty());
                QCOMPARE(e.changes.front().key, std::string("learning_rate"));
                QCOMPARE(e.changes.front().to, std::string("0.02"));
            }
        QVERIFY2(forkShown, tree->json.dump().c_str());

        // A long run, stopped from here.
        RemoteLaunchRequest slow = fork;
        slow.into = (far / "EXP000" / "RUN001-slow").string();
        slow.sets = {"epochs=1000", "epoch_delay=2"};
        auto started = client.launch(slow);
        QVERIFY2(started, started ? "" : started.error().message.c_str());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(started->run), std::string("running"), 30000);
        auto stopped = client.stop(started->run, 2);
        QVERIFY2(stopped, stopped ? "" : stopped.error().message.c_str());
        QCOMPARE(stopped->run, started->run);
        QVERIFY2(stopped->state != "running", stopped->state.c_str());
        // Refusals carry the far ckpt's reason.
        auto again = client.stop(started->run, 2);
        QVERIFY(!again);
        QVERIFY2(QString::fromStdString(again.error().message).contains("nothing to stop"),
                 again.error().message.c_str());
        // Forgotten there: off the far list, its folder kept.
        const Status forgotten = client.forget(started->run);
        QVERIFY2(forgotten, forgotten ? "" : forgotten.error().message.c_str());
        QCOMPARE(stateOf(started->run), std::string("not listed"));
        QVERIFY(fs::exists(started->run));
        const Status unknown = client.forget(started->run);
        QVERIFY(!unknown);
        QVERIFY2(QString::fromStdString(unknown.error().message).contains("not in the registry"),
                 unknown.error().message.c_str());
        RemoteLaunchRequest bad = request;
        bad.from = 99;
        auto refused = client.launch(bad);
        QVERIFY(!refused);
        QVERIFY2(QString::fromStdString(refused.error().message).contains("99"),
                 refused.error().message.c_str());
        RemoteLaunchRequest badSlurm = request;
        badSlurm.backend = LaunchPlan::Backend::Slurm;
        badSlurm.slurm.time = "1:2:3:4";
        auto badTime = client.launch(badSlurm);
        QVERIFY(!badTime);
        QVERIFY2(QString::fromStdString(badTime.error().message).contains("1:2:3:4"),
                 badTime.error().message.c_str());
    }

    // inspect and diff run next to the data: typed results, the weights never travel.
    void inspectsAndDiffsOnTheFarSide()
    {
        const fs::path run = m_far / "EXP000" / "RUN000" / "ckpts";
        auto model = remote().inspect((run / "epochs" / "001").string());
        QVERIFY2(model, model ? "" : model.error().message.c_str());
        QCOMPARE(model->file, (run / "epochs" / "001" / "model.h5").string());
        QCOMPARE(model->format, std::string("hdf5"));
        QCOMPARE(model->bytes, std::uint64_t(fs::file_size(model->file)));

        auto d = remote().diffEpochs(run.string(), 1, 2);
        QVERIFY2(d, d ? "" : d.error().message.c_str());
        QVERIFY(!d->tensors.empty());
        QVERIFY(!d->layers.empty());
        int changed = 0;
        for (const TensorDiffEntry& t : d->tensors)
            changed += t.status == TensorDiffEntry::Status::Changed;
        QVERIFY(changed > 0);
        // The same as a diff of the two files given by path, and as the local diff.
        auto files = remote().diff((run / "epochs" / "001" / "model.h5").string(),
                                   (run / "epochs" / "002" / "model.h5").string());
        QVERIFY2(files, files ? "" : files.error().message.c_str());
        QCOMPARE(files->tensors.size(), d->tensors.size());
        for (std::size_t i = 0; i < d->tensors.size(); ++i) {
            QCOMPARE(files->tensors[i].key, d->tensors[i].key);
            QCOMPARE(files->tensors[i].l2Diff, d->tensors[i].l2Diff);
            QCOMPARE(files->tensors[i].dtypeA.kind, d->tensors[i].dtypeA.kind);
        }
        // What came over the wire is the diff computed here, tensor by tensor.
        QTemporaryDir scratch;
        auto local = WeightsDiff::diff((run / "epochs" / "001" / "model.h5").string(),
                                       (run / "epochs" / "002" / "model.h5").string(),
                                       scratch.path().toStdString(), "diff", {});
        QVERIFY2(local, local ? "" : local.error().message.c_str());
        QCOMPARE(local->diff.tensors.size(), d->tensors.size());
        for (std::size_t i = 0; i < d->tensors.size(); ++i) {
            const TensorDiffEntry& a = local->diff.tensors[i];
            const TensorDiffEntry& b = d->tensors[i];
            QCOMPARE(b.key, a.key);
            QCOMPARE(b.pathA, a.pathA);
            QCOMPARE(b.layer, a.layer);
            QCOMPARE(int(b.status), int(a.status));
            QCOMPARE(b.shapeA, a.shapeA);
            QCOMPARE(b.dtypeA.name, a.dtypeA.name);
            QCOMPARE(b.l2Diff, a.l2Diff);
            QCOMPARE(b.relChange, a.relChange);
            QCOMPARE(b.maxAbsDiff, a.maxAbsDiff);
            QCOMPARE(b.cosine, a.cosine);
            QCOMPARE(b.elements, a.elements);
            QCOMPARE(b.changedElements, a.changedElements);
        }
        QCOMPARE(local->diff.layers.size(), d->layers.size());
        for (std::size_t i = 0; i < d->layers.size(); ++i) {
            QCOMPARE(d->layers[i].name, local->diff.layers[i].name);
            QCOMPARE(d->layers[i].changed, local->diff.layers[i].changed);
            QCOMPARE(d->layers[i].l2Diff, local->diff.layers[i].l2Diff);
        }
        auto missing = remote().diff((run / "nope.h5").string(), (run / "nope2.h5").string());
        QVERIFY(!missing);
        QVERIFY2(QString::fromStdString(missing.error().message).contains("nope"),
                 missing.error().message.c_str());
    }

    void verifyStreamsProgress()
    {
        int steps = 0;
        std::uint64_t lastDone = 0;
        std::uint64_t total = 0;
        const Progress progress([&](const ProgressUpdate& u) {
            ++steps;
            lastDone = u.done;
            total = u.total;
        });
        auto report = remote().verify(m_far.string(), progress);
        QVERIFY2(report, report ? "" : report.error().message.c_str());
        QCOMPARE((*report)["protocol"].get<int>(), kCliProtocol);
        QCOMPARE((*report)["totals"]["ok"].get<int>(), 8);
        QVERIFY(steps >= 1);
        QVERIFY(total > 0);
        QCOMPARE(lastDone, total);
    }

    // The window verifies the selected epochs only; a far ckpt from before
    // `--epoch N,M` (one number only) verifies the whole run instead.
    void verifyOfChosenEpochsReadsOnlyThose()
    {
        const auto epochsOf = [](const nlohmann::ordered_json& report) {
            std::vector<int> seen;
            for (const auto& run : report["runs"])
                for (const auto& e : run["epochs"])
                    seen.push_back(e["epoch"].get<int>());
            return seen;
        };
        auto chosen = remote().verify(m_run.string(), {}, {2, 4});
        QVERIFY2(chosen, chosen ? "" : chosen.error().message.c_str());
        QCOMPARE(epochsOf(*chosen), (std::vector<int>{2, 4}));

        const fs::path script = fs::path(m_tmp.path().toStdString()) / "bin" / "onenumber-ckpt";
        fs::create_directories(script.parent_path());
        writeShellScript(script,
                         "case \"$*\" in *--epoch\\ *,*) echo \"ckpt verify: --epoch needs a "
                         "whole number >= 0, got '2,4'\" >&2; exit 2;; esac\n"
                         "exec " CKPT_CLI_PATH " \"$@\"\n");
        RemoteOptions options = this->options();
        options.ckpt = script.string();
        auto whole = RemoteCkpt(target(), options).verify(m_run.string(), {}, {2, 4});
        QVERIFY2(whole, whole ? "" : whole.error().message.c_str());
        QCOMPARE(epochsOf(*whole).size(), std::size_t(4));
    }

    void cancellingVerifyStopsTheFarCkpt()
    {
        // Big enough that the far verify is still running when the first step arrives.
        const fs::path big = fs::path(m_tmp.path().toStdString()) / "big run" / "ckpts";
        CandleFixture a(big);
        for (int e = 1; e <= 6; ++e)
            a.addEpoch(e, 1.0 / e, std::size_t(48) << 20, e == 1);
        std::atomic_bool cancel = false;
        const Progress progress([&](const ProgressUpdate&) { cancel = true; }, &cancel);
        auto report = remote().verify(big.string(), progress);
        // (A far verify that finished before the cancel arrived is a result.)
        qInfo("verify %s", report ? "finished before the cancel" : report.error().message.c_str());
        if (!report)
            QCOMPARE(report.error().message, std::string("cancelled"));
        QTRY_COMPARE_WITH_TIMEOUT(farCkptCount("verify", "big run"), 0, 30000);
    }

    void relinkAppliesAndReadsBack()
    {
        auto r = remote().relink(m_run.string(), "last", 2);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY(r->applied);
        QCOMPARE(r->epoch, std::optional<int>(2));
        QVERIFY(!r->confirmedByRescan);
        auto far = remote().scan(m_run.string());
        QVERIFY(far);
        QCOMPARE(far->runs.front().linkedEpoch("last"), std::optional<int>(2));
        // A relink ckpt refuses (no such epoch) changes nothing and says why.
        auto refused = remote().relink(m_run.string(), "last", 99);
        QVERIFY(!refused);
        QVERIFY2(QString::fromStdString(refused.error().message).contains("99"),
                 refused.error().message.c_str());
        QVERIFY(remote().relink(m_run.string(), "last", 4));
    }

    // The connection drops (the far sshd session killed) after, or before, the
    // far relink ran: a second connection reads the link to learn the outcome.
    void relinkWithADroppedConnectionReadsTheOutcomeBack_data()
    {
        QTest::addColumn<bool>("relinkFirst");
        QTest::newRow("dropped after the relink") << true;
        QTest::newRow("dropped before the relink") << false;
    }
    void relinkWithADroppedConnectionReadsTheOutcomeBack()
    {
        QFETCH(bool, relinkFirst);
        const std::string killSession =
            "p=$PPID\n"
            "while [ \"$(cat /proc/$p/comm)\" != sshd ]; do p=$(cut -d' ' -f4 /proc/$p/stat); "
            "done\n"
            "kill -9 $p\nsleep 5\nexit 1\n";
        const fs::path script = fs::path(m_tmp.path().toStdString()) / "bin" / "dropping-ckpt";
        fs::create_directories(script.parent_path());
        // Only relink drops; the read-back scan runs the real ckpt.
        writeShellScript(
            script,
            std::string("if [ \"$1\" = relink ]; then\n") +
                (relinkFirst ? std::string(CKPT_CLI_PATH " \"$@\" >/dev/null\n") : std::string()) +
                killSession + "fi\nexec " CKPT_CLI_PATH " \"$@\"\n");
        RemoteOptions options = this->options();
        options.ckpt = script.string();
        const RemoteCkpt client(target(), options);
        auto r = client.relink(m_run.string(), "last", 3);
        QVERIFY2(r, r ? "" : r.error().message.c_str());
        QVERIFY(r->confirmedByRescan);
        QCOMPARE(r->applied, relinkFirst);
        QCOMPARE(r->epoch, std::optional<int>(relinkFirst ? 3 : 4));
        QVERIFY(remote().relink(m_run.string(), "last", 4));
    }

    void watchShowsANewEpochWithinASecond()
    {
        RemoteWatch watch(target(), options());
        QSignalSpy states(&watch, &RemoteWatch::stateChanged);
        QSignalSpy added(&watch, &RemoteWatch::epochAdded);
        watch.start();
        QTRY_COMPARE_WITH_TIMEOUT(watch.state(), RemoteWatch::State::Connected, 30000);
        QCOMPARE(states.first().at(0).value<RemoteWatch::State>(), RemoteWatch::State::Connecting);

        QElapsedTimer timer;
        const qint64 ms = addEpochAtomically(5, timer);
        QVERIFY(added.wait(10000));
        qInfo("new far epoch seen after %lld ms", static_cast<long long>(timer.elapsed()));
        QVERIFY2(timer.elapsed() < 1000, qPrintable(QString::number(timer.elapsed())));
        Q_UNUSED(ms);
        QCOMPARE(added.first().at(0).toString(), QString::fromStdString(m_run.string()));
        QCOMPARE(added.first().at(1).value<Epoch>().number, 5);

        watch.stop();
        QCOMPARE(watch.state(), RemoteWatch::State::Idle);
        // The far watch ends once its connection is gone (--exit-on-eof).
        QTRY_COMPARE_WITH_TIMEOUT(farCkptCount("watch", m_far.filename().string()), 0, 30000);
    }

    void droppedWatchReconnectsAndCatchesUp()
    {
        RemoteWatch watch(target(), options());
        watch.setBackoff(1500, 4000);
        QSignalSpy resynced(&watch, &RemoteWatch::resynced);
        QSignalSpy events(&watch, &RemoteWatch::eventLine);
        watch.start();
        QTRY_COMPARE_WITH_TIMEOUT(watch.state(), RemoteWatch::State::Connected, 30000);
        const int before = static_cast<int>(remote().scan(m_run.string())->runs[0].epochs.size());

        QVERIFY(m_server->dropConnections() >= 1);
        QTRY_COMPARE_WITH_TIMEOUT(watch.state(), RemoteWatch::State::Reconnecting, 30000);
        QVERIFY2(watch.message().contains("dropped") || watch.message().contains("Trying again"),
                 qPrintable(watch.message()));
        // Written while nobody watches: the next connection must see it.
        QElapsedTimer timer;
        addEpochAtomically(before + 1, timer);
        events.clear();
        QVERIFY(resynced.wait(30000));
        QCOMPARE(watch.state(), RemoteWatch::State::Connected);
        bool caughtUp = false;
        for (const auto& e : events) {
            const auto j = nlohmann::json::parse(e.at(2).toByteArray().toStdString());
            if (j["event"] == "run_found" && j["root"] == m_run.string())
                caughtUp = j["epochs"].get<int>() == before + 1;
        }
        QVERIFY(caughtUp);
        // The dropped connection's far watch has ended; only the new one runs.
        QTRY_COMPARE_WITH_TIMEOUT(farCkptCount("watch", m_far.filename().string()), 1, 30000);
    }

private:
    RemoteTarget target() const
    {
        RemoteTarget t;
        t.host = m_server->host().toStdString();
        t.path = m_far.string();
        return t;
    }
    RemoteOptions options() const
    {
        RemoteOptions o;
        o.ssh = m_server->sshCommand();
        o.ckpt = CKPT_CLI_PATH;
        return o;
    }
    RemoteCkpt remote() const { return RemoteCkpt(target(), options()); }
    void stopMaster(const SshMultiplex::Plan& plan)
    {
        if (plan.controlPath.isEmpty())
            return;
        QProcess::execute(QStringLiteral("ssh"),
                          options().ssh.mid(1) +
                              QStringList{"-o", "ControlPath=" + plan.controlPath, "-O", "exit"} +
                              SshMultiplex::destinationArgs(target()));
    }

    // Writes epoch `n` of the watched run elsewhere and renames it into
    // epochs/ as CANDLE does; `timer` starts at the rename.
    qint64 addEpochAtomically(int n, QElapsedTimer& timer)
    {
        const fs::path staging =
            fs::path(m_tmp.path().toStdString()) / "staging" / std::to_string(n) / "ckpts";
        CandleFixture s(staging);
        s.addEpoch(n, 0.1, 1024, false);
        char name[8];
        std::snprintf(name, sizeof name, "%03d", n);
        timer.start();
        fs::rename(s.epochDir(n), m_run / "epochs" / name);
        return timer.elapsed();
    }

    std::unique_ptr<SshServer> m_server;
    QTemporaryDir m_runtime;
    QTemporaryDir m_tmp;
    fs::path m_far;
    fs::path m_run;
};

QTEST_GUILESS_MAIN(TestRemoteCkpt)
#include "tst_RemoteCkpt.moc"
