#include "ProcessRunner.h"
#include "SshServer.h"
#include "remote/RemoteCkpt.h"
#include "report/Protocol.h"

#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

using namespace ckpt;
using namespace ckpt::test;

// scripts/install-remote.sh against a real sshd: the bundle lands in PREFIX,
// runs there, and the far dynamic loader takes its libraries from PREFIX/lib.
class TestInstallRemote : public QObject
{
    Q_OBJECT

private slots:
    void bundleRunsWithItsOwnLibraries()
    {
        SshServer server;
        QVERIFY2(server.ok(), server.error().c_str());
        QTemporaryDir tmp;
        QVERIFY(tmp.isValid());
        // A prefix with a space and a quote: the script quotes it for the far shell.
        const QString prefix = tmp.filePath(QStringLiteral("opt/ckpt it's"));

        QProcess script;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("CKPT_BUILD_DIR"), QStringLiteral(CKPT_BUILD_DIR));
        env.insert(QStringLiteral("CKPT_SSH"), server.sshCommand().join(QLatin1Char(' ')));
        env.insert(QStringLiteral("CKPT_SSH_COMPRESS"), QStringLiteral("0"));
        script.setProcessEnvironment(env);
        script.start(
            QStringLiteral("bash"),
            {QStringLiteral(CKPT_SOURCE_DIR "/scripts/install-remote.sh"), server.host(), prefix});
        QVERIFY(script.waitForFinished(300000));
        const QByteArray err = script.readAllStandardError();
        QVERIFY2(script.exitCode() == 0, err.constData());
        const auto version = nlohmann::json::parse(script.readAllStandardOutput().toStdString());
        QCOMPARE(version["protocol"].get<int>(), kCliProtocol);

        // The far loader's view: every library but glibc's from PREFIX/lib, for
        // the front end (bin/ckpt) and for the full program it runs
        // (libexec/ckpt/ckpt), Qt among the latter's.
        const QString ckpt = prefix + QStringLiteral("/bin/ckpt");
        RemoteTarget target;
        target.host = server.host().toStdString();
        const RemoteCkpt remote(target, RemoteOptions{server.sshCommand(), ckpt.toStdString()});
        // The libraries `program` loads from `libDir`, their sonames into `bundled`.
        const auto farLdd = [&](const QString& program, const QByteArray& libDir,
                                QByteArrayList& bundled) {
            const QStringList ldd =
                server.sshCommand() +
                QStringList{server.host(), QStringLiteral("--"),
                            QStringLiteral("ldd ") +
                                QString::fromStdString(shellQuote(program.toStdString()))};
            const ProcessResult r = runProcess(ldd.first(), ldd.mid(1));
            QVERIFY2(r.exitCode == 0, r.err.constData());
            for (const QByteArray& line : r.out.split('\n')) {
                if (!line.contains("=>"))
                    continue;
                QVERIFY2(!line.contains("not found"), line.constData());
                const bool glibc = line.contains("libc.so") || line.contains("libm.so") ||
                                   line.contains("libresolv.so") ||
                                   line.contains("libpthread.so") || line.contains("libdl.so") ||
                                   line.contains("librt.so");
                if (glibc)
                    continue;
                QVERIFY2(line.contains(libDir), line.constData());
                bundled.append(line.trimmed().split(' ').first());
            }
        };
        QByteArrayList front;
        farLdd(ckpt, prefix.toUtf8() + "/bin/../lib/", front);
        QVERIFY2(!front.isEmpty() && !front.contains("libQt6Core.so.6"), front.join(' '));
        QByteArrayList full;
        farLdd(prefix + QStringLiteral("/libexec/ckpt/ckpt"),
               prefix.toUtf8() + "/libexec/ckpt/../../lib/", full);
        QVERIFY2(full.size() >= 5 && full.contains("libQt6Core.so.6"), full.join(' '));

        // And the client speaks to it.
        auto probe = remote.probe();
        QVERIFY2(probe, probe ? "" : probe.error().message.c_str());
        QCOMPARE(probe->protocol, kCliProtocol);
    }
};

QTEST_GUILESS_MAIN(TestInstallRemote)
#include "tst_InstallRemote.moc"
