#include "CliRunner.h"
#include "ProtobufFixture.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>

using namespace ckpt::test;
namespace fs = std::filesystem;

// The CLI on MindSpore and Caffe2 runs side by side: "layout" set, the CRC
// trailers verified.
class TestProtobufCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    fs::path m_ms;
    fs::path m_c2;

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const fs::path base(m_tmp.path().toStdString());
        m_ms = base / "ms";
        m_c2 = base / "c2";
        for (int e = 1; e <= 2; ++e)
            ProtobufFixture::write(
                m_ms / ("net-" + std::to_string(e) + "_10.ckpt"),
                ProtobufFixture::mindspore(ProtobufFixture::network(e, 10), true), true);
        std::string bad = ProtobufFixture::mindspore(ProtobufFixture::network(3, 10), true);
        bad[bad.find(ProtobufFixture::floats({3.0f})) + 3] ^= 0x01;
        ProtobufFixture::write(m_ms / "net-3_10.ckpt", bad, true);
        ProtobufFixture::write(m_ms / "net-4_10.tmp", "partial");
        for (const std::string node : {"trainer_0", "trainer_1"})
            for (int e = 1; e <= 2; ++e)
                ProtobufFixture::write(
                    m_c2 / (node + "." + std::to_string(e)),
                    ProtobufFixture::minidb({C2Blob{"w", {1}, {float(e)}, {}, -1, -1, {}, 0, {}}}));
    }

    void scanJson()
    {
        const CliResult r = runCli({"scan", "--json", m_tmp.path()});
        QCOMPARE(r.exitCode, 0);
        const auto j = r.json();
        QCOMPARE(j["runs"].size(), std::size_t(2));
        std::map<std::string, nlohmann::json> byLayout;
        for (const auto& run : j["runs"])
            byLayout[run["layout"].get<std::string>()] = run;
        QVERIFY(byLayout.count("mindspore") && byLayout.count("caffe2"));
        QCOMPARE(byLayout["mindspore"]["epochs"].size(), std::size_t(3));
        QCOMPARE(byLayout["mindspore"]["epochs"][1]["step"].get<int>(), 10);
        QCOMPARE(byLayout["mindspore"]["in_progress"].size(), std::size_t(1));
        QCOMPARE(byLayout["caffe2"]["epochs"].size(), std::size_t(2));
    }

    void verifyJsonChecksTheTrailers()
    {
        const CliResult r = runCli({"verify", "--json", QString::fromStdString(m_ms.string())});
        QVERIFY(r.exitCode != 0); // a mismatch
        const auto j = r.json();
        QCOMPARE(j["runs"][0]["layout"].get<std::string>(), std::string("mindspore"));
        const auto& epochs = j["runs"][0]["epochs"];
        QCOMPARE(epochs.size(), std::size_t(3));
        QCOMPARE(epochs[0]["status"].get<std::string>(), std::string("ok"));
        QCOMPARE(epochs[2]["status"].get<std::string>(), std::string("mismatch"));
    }

    void verifyCaffe2SaysNoChecksum()
    {
        const CliResult r = runCli({"verify", "--json", QString::fromStdString(m_c2.string())});
        const auto j = r.json();
        QCOMPARE(j["runs"][0]["layout"].get<std::string>(), std::string("caffe2"));
        QVERIFY2(r.out.contains("no_checksum"), r.out.constData());
    }

    void historyOfAMindSporeRun()
    {
        const CliResult r = runCli({"history", "--json", QString::fromStdString(m_ms.string())});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json()["layout"].get<std::string>(), std::string("mindspore"));
    }
};

QTEST_GUILESS_MAIN(TestProtobufCli)
#include "tst_ProtobufCli.moc"
