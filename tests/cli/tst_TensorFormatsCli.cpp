// `ckpt inspect` and `ckpt diff` on the non-HDF5 formats, through the one
// TensorSource path: real torch.save zips (TorchZipWriter) and real MindSpore
// protobuf files (ProtobufFixture), as a user runs the commands.
#include "CliRunner.h"
#include "ProtobufFixture.h"
#include "TorchZipWriter.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ckpt::test;
namespace fs = std::filesystem;

class tst_TensorFormatsCli : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(TorchZipWriter::write(path("a.ckpt"), TorchZipWriter::lightningCheckpoint(1, 100)));
        QVERIFY(TorchZipWriter::write(path("b.ckpt"),
                                      TorchZipWriter::lightningCheckpoint(2, 200, 0.5f)));
        ProtobufFixture::write(path("net-1_10.ckpt"),
                               ProtobufFixture::mindspore(ProtobufFixture::network(1, 10), true));
        ProtobufFixture::write(
            path("net-2_10.ckpt"),
            ProtobufFixture::mindspore(ProtobufFixture::network(2, 10, 0.5f), true));
    }

    void inspectTorch()
    {
        const CliResult r = runCli({"inspect", file("a.ckpt"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const nlohmann::json j = r.json();
        QCOMPARE(j["format"].get<std::string>(), std::string("torch"));
        bool weight = false, optimizer = false;
        for (const auto& t : j["tensors"]) {
            const std::string name = t["name"];
            if (name == "state_dict/layer1.weight") {
                weight = true;
                QVERIFY(t["shape"] == nlohmann::json::array({3, 4}));
                QCOMPARE(t["dtype"].get<std::string>(), std::string("float32"));
                QCOMPARE(t["min"].get<double>(), -1.0); // 0.25 i - 1, i = 0..11
                QCOMPARE(t["max"].get<double>(), 1.75);
            }
            optimizer = optimizer || (name.find("exp_avg") != std::string::npos &&
                                      t.value("optimizer_state", false));
        }
        QVERIFY(weight);
        QVERIFY(optimizer);
        const CliResult text = runCli({"inspect", file("a.ckpt")});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("torch") && text.out.contains("state_dict/layer1.weight"),
                 text.out.constData());
    }

    void diffTorchEpochs()
    {
        const CliResult r = runCli({"diff", file("a.ckpt"), file("b.ckpt"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const nlohmann::json j = r.json();
        std::map<std::string, std::string> status;
        for (const auto& t : j["tensors"])
            status[t["key"].get<std::string>()] = t["status"].get<std::string>();
        QCOMPARE(status["state_dict/layer1.weight"], std::string("changed"));
        QCOMPARE(status["state_dict/norm.scale"], std::string("same"));
        QVERIFY(status.count("optimizer_states/0/state/0/exp_avg"));
        for (const auto& t : j["tensors"])
            if (t["key"] == "state_dict/layer1.weight")
                QCOMPARE(t["max_abs_diff"].get<double>(), 0.5);

        const CliResult model =
            runCli({"diff", file("a.ckpt"), file("b.ckpt"), "--json", "--no-optimizer"});
        QCOMPARE(model.exitCode, 0);
        const nlohmann::json m = model.json();
        for (const auto& t : m["tensors"])
            QVERIFY2(t["key"].get<std::string>().find("optimizer_states") == std::string::npos,
                     t.dump().c_str());
    }

    void mindSporeInspectAndDiff()
    {
        const CliResult r = runCli({"inspect", file("net-1_10.ckpt"), "--json"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.json()["format"].get<std::string>(), std::string("mindspore"));
        const nlohmann::json ij = r.json();
        QVERIFY(ij["tensors"].size() >= 3);

        const CliResult d =
            runCli({"diff", file("net-1_10.ckpt"), file("net-2_10.ckpt"), "--json"});
        QVERIFY2(d.exitCode == 0, d.err.constData());
        const nlohmann::json dj = d.json();
        std::map<std::string, std::string> status;
        for (const auto& t : dj["tensors"])
            status[t["key"].get<std::string>()] = t["status"].get<std::string>();
        QCOMPARE(status["conv.weight"], std::string("changed"));
        QCOMPARE(status["conv.bias"], std::string("same"));
    }

    void differentFormatsAreRefused()
    {
        const CliResult r = runCli({"diff", file("a.ckpt"), file("net-1_10.ckpt")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("different formats") && r.err.contains("net-1_10.ckpt"),
                 r.err.constData());
    }

private:
    fs::path path(const char* name) const { return fs::path(m_dir.path().toStdString()) / name; }
    QString file(const char* name) const { return m_dir.filePath(name); }
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(tst_TensorFormatsCli)
#include "tst_TensorFormatsCli.moc"
