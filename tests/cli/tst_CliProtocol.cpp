#include "CandleFixture.h"
#include "CliRunner.h"
#include "report/Protocol.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <memory>

using namespace ckpt::test;
namespace fs = std::filesystem;

// Every JSON document `ckpt` prints starts with "protocol": a client that talks
// to an older or newer `ckpt` over ssh reads it before anything else.
class TestCliProtocol : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
        m_root = fs::path(m_tmp->path().toStdString());
        m_run = std::make_unique<CandleFixture>(m_root / "exp" / "ckpts");
        for (int e = 1; e <= 4; ++e)
            m_run->addEpoch(e, 1.0 / e, 256, e == 1);
        m_run->linkAbsolute("last", 4);
        m_run->linkAbsolute("best", 4);
        CandleFixture::writeText(m_root / "exp" / "training.log",
                                 "epoch,loss,val_loss\r\n0,1.5,1.0\r\n1,1.25,0.5\r\n");
    }
    void cleanup()
    {
        m_run.reset();
        m_tmp.reset();
    }

    void everyDocumentStartsWithTheProtocol_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("member"); // a member the document has besides
        const QString run = QStringLiteral("%RUN%");
        QTest::newRow("scan") << QStringList{"scan", "--json", "%TMP%"} << "runs";
        QTest::newRow("verify") << QStringList{"verify", "--json", "%TMP%"} << "totals";
        QTest::newRow("history") << QStringList{"history", "--json", run} << "rows";
        QTest::newRow("relink") << QStringList{"relink", run, "--last", "2", "--json"}
                                << "previous_target";
        QTest::newRow("prune") << QStringList{"prune", run, "--keep-limit", "1", "--json"}
                               << "delete";
        QTest::newRow("version") << QStringList{"version", "--json"} << "version";
        QTest::newRow("--version --json") << QStringList{"--version", "--json"} << "version";
    }
    void everyDocumentStartsWithTheProtocol()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, member);
        args.replaceInStrings(QStringLiteral("%TMP%"), m_tmp->path());
        args.replaceInStrings(QStringLiteral("%RUN%"),
                              QString::fromStdString(m_run->root().string()));
        const CliResult r = runCli(args);
        QVERIFY2(r.exitCode == 0 || r.exitCode == 1, r.err.constData());
        const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
        QVERIFY(j.is_object());
        QCOMPARE(j.begin().key(), std::string("protocol"));
        QCOMPARE(j["protocol"].get<int>(), ckpt::kCliProtocol);
        QVERIFY2(j.contains(member.toStdString()), r.out.constData());
    }

    void versionNamesTheProtocolRange()
    {
        const CliResult r = runCli({"version", "--json"});
        QCOMPARE(r.exitCode, 0);
        const auto j = r.json();
        QCOMPARE(j["program"].get<std::string>(), std::string("ckpt"));
        QCOMPARE(j["min_protocol"].get<int>(), ckpt::kMinCliProtocol);
        QVERIFY(!j["version"].get<std::string>().empty());
        const CliResult text = runCli({"version"});
        QVERIFY2(text.out.startsWith("ckpt "), text.out.constData());
        QVERIFY2(text.out.contains("protocol"), text.out.constData());
    }

    void verifyStreamsProgressLinesOnStderr()
    {
        const CliResult r = runCli({"verify", "--json", "--progress-json", m_tmp->path()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.err.split('\n');
        int steps = 0;
        std::uint64_t lastDone = 0;
        std::uint64_t total = 0;
        for (const QByteArray& line : lines) {
            if (line.isEmpty())
                continue;
            const auto j = nlohmann::json::parse(line.toStdString());
            QCOMPARE(j["protocol"].get<int>(), ckpt::kCliProtocol);
            QCOMPARE(j["progress"].get<std::string>(), std::string("verifying"));
            QVERIFY(j["done"].get<std::uint64_t>() >= lastDone);
            lastDone = j["done"].get<std::uint64_t>();
            total = j["total"].get<std::uint64_t>();
            ++steps;
        }
        QVERIFY2(steps >= 1, r.err.constData());
        QCOMPARE(lastDone, total); // the last step is always written
        QVERIFY(total >= 4 * 256);
        // Without the option, stderr stays free of progress in a pipe.
        QVERIFY(runCli({"verify", "--json", m_tmp->path()}).err.isEmpty());
    }

    void watchLinesCarryTheProtocol()
    {
        // The "ready" line comes after the found runs; then SIGTERM ends the watch.
        QProcess p;
        p.start(cliPath(), {"watch", "--json", m_tmp->path()});
        QVERIFY(p.waitForStarted());
        QByteArray out;
        while (!out.contains("\"ready\"") && p.waitForReadyRead(30000))
            out += p.readAllStandardOutput();
        p.terminate();
        QVERIFY(p.waitForFinished(30000));
        out += p.readAllStandardOutput();
        int lines = 0;
        for (const QByteArray& line : out.split('\n')) {
            if (line.isEmpty())
                continue;
            const auto j = nlohmann::ordered_json::parse(line.toStdString());
            QCOMPARE(j.begin().key(), std::string("protocol"));
            ++lines;
        }
        QVERIFY2(lines >= 2, out.constData()); // run_found and ready
    }

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    fs::path m_root;
    std::unique_ptr<CandleFixture> m_run;
};

QTEST_GUILESS_MAIN(TestCliProtocol)
#include "tst_CliProtocol.moc"
