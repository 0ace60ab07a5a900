#include "DemoRun.h"
#include "SshServer.h"
#include "remote/RemoteCkpt.h"
#include "remote/SshMultiplex.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

// The experiment manager's Slurm backend driven over ssh: a real one-node
// cluster (scripts/slurm-cluster.sh) and a real sshd on loopback; the far
// `ckpt launch --backend slurm` runs sbatch on the "cluster side".
class TestRemoteSlurm : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        const QStringList path = {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin")};
        if (QStandardPaths::findExecutable(QStringLiteral("slurmctld"), path).isEmpty() ||
            QStandardPaths::findExecutable(QStringLiteral("sbatch")).isEmpty())
            QSKIP("Slurm is not installed here (scripts/setup-deps.sh)");
        if (::geteuid() != 0)
            QSKIP("a test cluster needs root (SlurmUser=root, munged as user munge)");
        QVERIFY(m_dir.isValid() && m_runtime.isValid());
        qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_runtime.path()));
        // munged runs as user munge: it must reach the cluster folder.
        QVERIFY(::chmod(m_dir.path().toLocal8Bit().constData(), 0755) == 0);
        m_clusterDir = m_dir.filePath(QStringLiteral("cluster"));
        const QString out = cluster(QStringLiteral("start"));
        QVERIFY2(out.startsWith(QLatin1String("export SLURM_CONF=")), qPrintable(out));
        m_started = true;
        m_slurmConf = out.mid(18).trimmed().toStdString();
        m_server = std::make_unique<SshServer>();
        QVERIFY2(m_server->ok(), m_server->error().c_str());
    }
    void cleanupTestCase()
    {
        if (m_server) {
            const SshMultiplex::Plan plan = SshMultiplex::plan(options().ssh, target());
            if (!plan.controlPath.isEmpty())
                QProcess::execute(
                    QStringLiteral("ssh"),
                    options().ssh.mid(1) +
                        QStringList{"-o", "ControlPath=" + plan.controlPath, "-O", "exit"} +
                        SshMultiplex::destinationArgs(target()));
            m_server.reset();
        }
        if (m_started)
            QVERIFY(!cluster(QStringLiteral("stop")).startsWith(QLatin1String("exit")));
    }

    void forksOnTheClusterThroughSsh()
    {
        const fs::path root(m_dir.path().toStdString());
        const fs::path parent = root / "far" / "RUN000";
        trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), parent, (parent / "config.ini").string(),
                     "[Global_Params]\nepochs = 3\nlearning_rate = 0.01\n"
                     "samples_per_class = 40\nckpt_checksum = True\n");
        const RemoteCkpt client(target(), options());
        RemoteLaunchRequest fork;
        fork.run = (parent / "ckpts").string();
        fork.from = 2;
        fork.mode = LaunchPlan::Mode::Fork;
        fork.config = (parent / "config.ini").string();
        fork.sets = {"learning_rate=0.02"};
        fork.backend = LaunchPlan::Backend::Slurm;
        fork.slurm.time = "00:05:00";
        fork.slurm.cpusPerTask = 1;
        for (const QString& word : demoLaunchTemplate(QStringLiteral(CKPT_DEMO_TRAIN)).mid(1))
            fork.commandTemplate.push_back(word.toStdString());
        auto launched = client.launch(fork);
        QVERIFY2(launched, launched ? "" : launched.error().message.c_str());
        QCOMPARE(launched->backend, std::string("slurm"));
        QVERIFY(launched->jobId && !launched->jobId->empty());

        const auto find = [&]() -> RemoteLaunchedRun {
            auto listed = client.runs((root / "far").string());
            if (listed)
                for (const RemoteLaunchedRun& r : *listed)
                    if (r.run == launched->run)
                        return r;
            RemoteLaunchedRun none;
            none.state = listed ? "not listed" : listed.error().message;
            return none;
        };
        QTRY_COMPARE_WITH_TIMEOUT(find().state, std::string("completed"), 120000);
        const RemoteLaunchedRun run = find();
        QCOMPARE(run.backend, std::string("slurm"));
        QCOMPARE(run.jobId, launched->jobId);
        QCOMPARE(run.parentEpoch, std::optional<int>(2));
        auto far = client.scan(launched->run);
        QVERIFY2(far, far ? "" : far.error().message.c_str());
        QCOMPARE(far->runs.size(), std::size_t(1));
        QCOMPARE(far->runs.front().epochs.back().number, 3);
    }

private:
    QString cluster(const QString& action)
    {
        QProcess p;
        p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        p.start(
            QStringLiteral("bash"),
            {QStringLiteral(CKPT_SOURCE_DIR "/scripts/slurm-cluster.sh"), action, m_clusterDir});
        if (!p.waitForFinished(90000))
            return QStringLiteral("timeout");
        return p.exitCode() == 0 ? QString::fromUtf8(p.readAllStandardOutput())
                                 : QStringLiteral("exit %1").arg(p.exitCode());
    }
    RemoteTarget target() const
    {
        RemoteTarget t;
        t.host = m_server->host().toStdString();
        t.path = m_dir.path().toStdString();
        return t;
    }
    RemoteOptions options() const
    {
        // The far shell gets the cluster's SLURM_CONF and a registry of this test.
        const fs::path wrapper = fs::path(m_dir.path().toStdString()) / "bin" / "ckpt";
        if (!fs::exists(wrapper)) {
            fs::create_directories(wrapper.parent_path());
            std::string text = "#!/bin/sh\nexport SLURM_CONF='" + m_slurmConf;
            text += "' XDG_DATA_HOME='" + m_dir.path().toStdString();
            text += "/far-data'\nexec " CKPT_CLI_PATH " \"$@\"\n";
            QFile f(QString::fromStdString(wrapper.string()));
            if (f.open(QIODevice::WriteOnly))
                f.write(text.c_str());
            f.close();
            fs::permissions(wrapper, fs::perms::owner_all | fs::perms::group_read |
                                         fs::perms::group_exec | fs::perms::others_read |
                                         fs::perms::others_exec);
        }
        RemoteOptions o;
        o.ssh = m_server->sshCommand();
        o.ckpt = wrapper.string();
        return o;
    }

    QTemporaryDir m_dir;
    QTemporaryDir m_runtime;
    QString m_clusterDir;
    std::string m_slurmConf;
    bool m_started = false;
    std::unique_ptr<SshServer> m_server;
};

QTEST_GUILESS_MAIN(TestRemoteSlurm)
#include "tst_RemoteSlurm.moc"
