#include "CliRunner.h"
#include "ProtobufFixture.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>

using namespace ckpt::test;
namespace fs = std::filesystem;

// The CLI on a folder shared by two MindSpore training processes (net, then
// net_1): two runs, each named <folder>/<prefix>, a name no directory has.
class TestMindSporeRerunsCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    fs::path m_dir;

    QString root(const char* name) const { return QString::fromStdString((m_dir / name).string()); }

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_dir = fs::path(m_tmp.path().toStdString()) / "ckpt";
        const auto save = [&](const std::string& prefix, int epoch, float shift, bool corrupt) {
            std::string bytes =
                ProtobufFixture::mindspore(ProtobufFixture::network(epoch, 10, shift), true);
            if (corrupt)
                bytes[bytes.find(ProtobufFixture::floats({3.0f})) + 3] ^= 0x01;
            ProtobufFixture::write(m_dir / (prefix + "-" + std::to_string(epoch) + "_10.ckpt"),
                                   bytes, true);
        };
        for (int e = 1; e <= 5; ++e)
            save("net", e, 0.0f, false);
        // net_1's epoch 3 is corrupt: verify of net_1 fails, of net passes.
        for (int e = 1; e <= 3; ++e)
            save("net_1", e, 0.5f, e == 3);
    }

    void scanListsBothRuns()
    {
        const CliResult r = runCli({"scan", "--json", m_tmp.path()});
        QCOMPARE(r.exitCode, 0);
        const auto runs = r.json()["runs"];
        QCOMPARE(runs.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(runs[0]["root"].get<std::string>()), root("net"));
        QCOMPARE(QString::fromStdString(runs[1]["root"].get<std::string>()), root("net_1"));
        QCOMPARE(runs[0]["dir"].get<std::string>(), m_dir.string());
        QCOMPARE(runs[0]["epochs"].size(), std::size_t(5));
        QCOMPARE(runs[1]["epochs"].size(), std::size_t(3));
        QCOMPARE(runs[1]["epochs"][0]["model"].get<std::string>(),
                 (m_dir / "net_1-1_10.ckpt").string());
    }

    void historyOfOneRun()
    {
        for (const auto& [name, epochs] : {std::pair{"net", 5}, std::pair{"net_1", 3}}) {
            const CliResult r = runCli({"history", "--json", root(name)});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const auto j = r.json();
            QCOMPARE(j["layout"].get<std::string>(), std::string("mindspore"));
            QCOMPARE(j["rows"].size(), std::size_t(epochs));
            QCOMPARE(j["rows"].back()["epoch"].get<int>(), epochs);
        }
    }

    void theFolderIsAmbiguous()
    {
        const CliResult r = runCli({"history", "--json", QString::fromStdString(m_dir.string())});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("2 runs") && r.err.contains(root("net_1").toUtf8()),
                 r.err.constData());
    }

    void verifyOneRun()
    {
        CliResult r = runCli({"verify", "--json", root("net")});
        QVERIFY2(r.exitCode == 0, r.out.constData());
        QCOMPARE(r.json()["runs"].size(), std::size_t(1));
        QCOMPARE(r.json()["runs"][0]["epochs"].size(), std::size_t(5));
        r = runCli({"verify", root("net_1")});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.out.contains("net_1-3_10.ckpt") && !r.out.contains("net-3_10.ckpt"),
                 r.out.constData());
    }

    void inspectAndDiffEpochsOfTheRerun()
    {
        CliResult r = runCli(
            {"inspect", "--json", QString::fromStdString((m_dir / "net_1-2_10.ckpt").string())});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = runCli({"diff", root("net_1"), "--epochs", "1", "2", "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("net_1-1_10.ckpt") && r.out.contains("net_1-2_10.ckpt"),
                 r.out.constData());
    }

    void aRunThatIsNotThere()
    {
        const CliResult r = runCli({"history", root("net_7")});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("no such folder"), r.err.constData());
    }

    // Last: it adds an epoch to net_1.
    void watchNamesTheRerunsFiles()
    {
        QProcess p;
        p.start(cliPath(), {"watch", "--json", QString::fromStdString(m_dir.string())});
        QVERIFY(p.waitForStarted());
        QByteArray seen;
        auto waitFor = [&](const QByteArray& needle) {
            QElapsedTimer t;
            t.start();
            while (!seen.contains(needle) && t.elapsed() < 10000) {
                p.waitForReadyRead(100);
                seen += p.readAllStandardOutput();
            }
            return seen.contains(needle);
        };
        QVERIFY2(waitFor("\"event\":\"ready\""), seen.constData());
        QVERIFY2(seen.contains(root("net_1").toUtf8()), seen.constData());
        const fs::path file = m_dir / "net_1-4_10.ckpt";
        ProtobufFixture::write(fs::path(file.string() + ".tmp"),
                               ProtobufFixture::mindspore(ProtobufFixture::network(4, 10), true));
        fs::rename(file.string() + ".tmp", file);
        QVERIFY2(waitFor("\"event\":\"epoch_added\""), seen.constData());
        QVERIFY2(waitFor(QByteArray::fromStdString("\"" + file.string() + "\"")), seen.constData());
        p.terminate();
        QVERIFY(p.waitForFinished(5000));
        QCOMPARE(p.exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestMindSporeRerunsCli)
#include "tst_MindSporeRerunsCli.moc"
