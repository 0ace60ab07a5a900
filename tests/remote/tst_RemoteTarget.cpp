#include "remote/RemoteCkpt.h"
#include "remote/RemoteTarget.h"

#include <QProcess>
#include <QTest>

using namespace ckpt;

class TestRemoteTarget : public QObject
{
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port"); // 0: none
        QTest::addColumn<QString>("path");
        QTest::newRow("url") << "ssh://gpu1/data/exp"
                             << ""
                             << "gpu1" << 0 << "/data/exp";
        QTest::newRow("url user port") << "ssh://ana@gpu1.lab.org:2222/data/exp"
                                       << "ana"
                                       << "gpu1.lab.org" << 2222 << "/data/exp";
        QTest::newRow("url home") << "ssh://gpu1/~/exp"
                                  << ""
                                  << "gpu1" << 0 << "~/exp";
        QTest::newRow("url ipv6") << "ssh://[::1]:22/x"
                                  << ""
                                  << "::1" << 22 << "/x";
        QTest::newRow("scp") << "gpu1:/data/exp"
                             << ""
                             << "gpu1" << 0 << "/data/exp";
        QTest::newRow("scp user relative") << "ana@gpu1:exp"
                                           << "ana"
                                           << "gpu1" << 0 << "~/exp";
        QTest::newRow("scp spaces") << "gpu1:/data/my exp"
                                    << ""
                                    << "gpu1" << 0 << "/data/my exp";
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(QString, user);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, path);
        QVERIFY(RemoteTarget::looksRemote(text.toStdString()));
        auto t = RemoteTarget::parse(text.toStdString());
        QVERIFY2(t, t ? "" : t.error().message.c_str());
        QCOMPARE(QString::fromStdString(t->user), user);
        QCOMPARE(QString::fromStdString(t->host), host);
        QCOMPARE(t->port.value_or(0), port);
        QCOMPARE(QString::fromStdString(t->path), path);
        // The ssh:// form reads back to the same target.
        auto again = RemoteTarget::parse(t->url());
        QVERIFY2(again, t->url().c_str());
        QVERIFY(*again == *t);
    }

    void rejects_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("needle");
        QTest::newRow("no path") << "ssh://gpu1"
                                 << "no path";
        QTest::newRow("bad port") << "ssh://gpu1:99999/x"
                                  << "port";
        QTest::newRow("port not a number") << "ssh://gpu1:ab/x"
                                           << "port";
        QTest::newRow("option as host") << "ssh://-oProxyCommand=x/x"
                                        << "host";
        QTest::newRow("empty host") << "ssh:///x"
                                    << "host";
        QTest::newRow("local path") << "/data/exp"
                                    << "no host";
    }
    void rejects()
    {
        QFETCH(QString, text);
        QFETCH(QString, needle);
        auto t = RemoteTarget::parse(text.toStdString());
        QVERIFY(!t);
        QVERIFY2(QString::fromStdString(t.error().message).contains(needle),
                 t.error().message.c_str());
    }

    void localPathsAreNotRemote_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("absolute") << "/data/exp";
        QTest::newRow("relative with colon later") << "runs/a:b";
        QTest::newRow("dot") << ".";
    }
    void localPathsAreNotRemote()
    {
        QFETCH(QString, text);
        QVERIFY(!RemoteTarget::looksRemote(text.toStdString()));
    }

    // What the far shell receives: every argument arrives as one word, byte for
    // byte, whatever quotes, spaces or $ it holds.
    void quotedArgumentsSurviveTheShell_data()
    {
        QTest::addColumn<QString>("arg");
        QTest::newRow("plain") << "/data/exp";
        QTest::newRow("space") << "/data/my exp";
        QTest::newRow("single quote") << "/data/it's";
        QTest::newRow("double quote") << "/data/\"x\"";
        QTest::newRow("dollar and backtick") << "/data/$HOME`id`";
        QTest::newRow("semicolon") << "a; rm -rf /";
        QTest::newRow("newline") << "a\nb";
        QTest::newRow("glob") << "*";
        QTest::newRow("empty") << "";
        QTest::newRow("leading dash") << "-rf";
    }
    void quotedArgumentsSurviveTheShell()
    {
        QFETCH(QString, arg);
        const std::string word = shellQuote(arg.toStdString());
        QProcess sh;
        sh.start(
            QStringLiteral("/bin/sh"),
            {QStringLiteral("-c"), QStringLiteral("printf '%s' ") + QString::fromStdString(word)});
        QVERIFY(sh.waitForFinished());
        QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()), arg);
    }

    void homePathsKeepTheirTilde()
    {
        QCOMPARE(RemoteCkpt::quotePath("~/my exp"), std::string("~/'my exp'"));
        QCOMPARE(RemoteCkpt::quotePath("~"), std::string("~"));
        QCOMPARE(RemoteCkpt::quotePath("/a b"), std::string("'/a b'"));
    }

    void sshCommandNeverLetsTheHostBeAnOption()
    {
        RemoteTarget t;
        t.host = "gpu1";
        t.port = 2200;
        t.user = "ana";
        const RemoteCkpt remote(t, RemoteOptions{{"ssh"}, "/opt/ckpt dir/bin/ckpt", 5});
        const QStringList cmd = remote.sshCommand({"scan", "/data/my exp"});
        QCOMPARE(cmd.first(), QStringLiteral("ssh"));
        QVERIFY(cmd.contains(QStringLiteral("BatchMode=yes")));
        const auto dashes = cmd.indexOf(QStringLiteral("--"));
        QVERIFY(dashes > 0);
        QCOMPARE(cmd.at(dashes + 1), QStringLiteral("ana@gpu1"));
        QCOMPARE(cmd.at(dashes + 2),
                 QStringLiteral("'/opt/ckpt dir/bin/ckpt' scan '/data/my exp'"));
        QCOMPARE(cmd.at(cmd.indexOf(QStringLiteral("-p")) + 1), QStringLiteral("2200"));
    }

    void failuresSayWhatToDo_data()
    {
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("stderrText");
        QTest::addColumn<int>("failure");
        QTest::addColumn<QString>("needle");
        QTest::newRow("refused") << 255 << "ssh: connect to host h port 1: Connection refused\n"
                                 << int(RemoteFailure::Unreachable)
                                 << "Check the host name and port";
        QTest::newRow("unknown host")
            << 255 << "ssh: Could not resolve hostname nohost: Name or service not known\n"
            << int(RemoteFailure::Unreachable) << "Cannot reach";
        QTest::newRow("no key") << 255 << "ana@h: Permission denied (publickey).\n"
                                << int(RemoteFailure::Denied) << "ssh-copy-id";
        QTest::newRow("host key") << 255 << "Host key verification failed.\n"
                                  << int(RemoteFailure::Denied) << "accept it";
        QTest::newRow("dropped") << 255 << "Connection to h closed by remote host.\n"
                                 << int(RemoteFailure::Dropped) << "dropped";
        QTest::newRow("no ckpt") << 127 << "bash: line 1: ckpt: command not found\n"
                                 << int(RemoteFailure::CkptMissing) << "install-remote.sh";
        QTest::newRow("not executable") << 126 << "bash: /x/ckpt: Permission denied\n"
                                        << int(RemoteFailure::CkptMissing) << "cannot be run";
        QTest::newRow("old ckpt") << 2 << "ckpt: unknown command 'version'. Try 'ckpt --help'.\n"
                                  << int(RemoteFailure::ProtocolMismatch) << "too old";
        QTest::newRow("refused by ckpt") << 2 << "ckpt scan: /x: not a folder\n"
                                         << int(RemoteFailure::Refused) << "not a folder";
    }
    void failuresSayWhatToDo()
    {
        QFETCH(int, exitCode);
        QFETCH(QString, stderrText);
        QFETCH(int, failure);
        QFETCH(QString, needle);
        RemoteTarget t;
        t.host = "h";
        const auto [kind, message] =
            RemoteCkpt::classify(t, "ckpt", exitCode, stderrText.toStdString());
        QCOMPARE(int(kind), failure);
        QVERIFY2(QString::fromStdString(message).contains(needle), message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestRemoteTarget)
#include "tst_RemoteTarget.moc"
