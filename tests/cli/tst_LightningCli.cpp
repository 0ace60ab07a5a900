#include "CandleFixture.h"
#include "CliRunner.h"
#include "LightningFixture.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>
#include <set>

using namespace ckpt::test;
namespace fs = std::filesystem;

// The CLI on a mixed tree: a CANDLE run beside a Lightning logger folder.
class TestLightningCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    fs::path m_version;

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const fs::path base(m_tmp.path().toStdString());
        CandleFixture c(base / "a" / "ckpts");
        c.addEpoch(1, 0.5, 64, true);
        c.linkAbsolute("last", 1);
        LightningFixture l(base / "b" / "lightning_logs" / "version_0");
        l.addCheckpoint(0, 100);
        l.addNamed("epoch=1-step=200-val_loss=0.125.ckpt", 1, 200);
        l.linkLast("epoch=1-step=200-val_loss=0.125.ckpt");
        l.writeMetrics("epoch,step,train_loss,val_loss\n0,99,0.75,\n0,99,,0.5\n1,199,,0.25\n");
        m_version = l.root();
    }

    void scanJsonHasTheLayoutOfEveryRun()
    {
        const CliResult r = runCli({"scan", "--json", m_tmp.path()});
        QCOMPARE(r.exitCode, 0);
        const auto j = r.json();
        QCOMPARE(j["runs"].size(), std::size_t(2));
        std::set<std::string> layouts;
        for (const auto& run : j["runs"]) {
            layouts.insert(run["layout"].get<std::string>());
            if (run["layout"] == "lightning") {
                QCOMPARE(run["epochs"].size(), std::size_t(2));
                QCOMPARE(run["last"].get<int>(), 200);
                QCOMPARE(run["epochs"][1]["metrics"]["val_loss"].get<double>(), 0.125);
            }
        }
        QCOMPARE(layouts, (std::set<std::string>{"candle", "lightning"}));
    }

    void historyOfALightningRun()
    {
        const CliResult r =
            runCli({"history", "--json", QString::fromStdString(m_version.string())});
        QCOMPARE(r.exitCode, 0);
        const auto j = r.json();
        QCOMPARE(j["layout"].get<std::string>(), std::string("lightning"));
        QVERIFY2(r.out.contains("\"train_loss\""), r.out.constData());
        QVERIFY(r.out.contains("0.75"));
        QVERIFY(r.out.contains("0.25"));
        // CSVLogger rows at step S-1 land on the checkpoint saved as step=S:
        // one row per checkpoint, none a step before.
        std::map<int, nlohmann::json> rows;
        for (const auto& row : j["rows"])
            rows[row["epoch"].get<int>()] = row;
        QVERIFY2(!rows.count(99) && !rows.count(199), r.out.constData());
        QVERIFY2(rows.count(100) && rows.count(200), r.out.constData());
        QVERIFY2(r.out.contains("0.5"), r.out.constData());
    }

    // A Lightning run's parameters are its hparams.yaml, with no --config.
    void paramsOfALightningRun()
    {
        const QString run = QString::fromStdString(m_version.string());
        const CliResult text = runCli({"params", run});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("hparams.yaml"), text.out.constData());
        QVERIFY2(text.out.contains("batch_size") && text.out.contains("32"), text.out.constData());
        const CliResult json = runCli({"params", "--json", run});
        QCOMPARE(json.exitCode, 0);
        const auto j = json.json();
        QCOMPARE(j["format"].get<std::string>(), std::string("yaml"));
        QCOMPARE(j["sections"][0]["parameters"][0]["key"].get<std::string>(), std::string("lr"));
        QCOMPARE(j["sections"][0]["parameters"][0]["value"].get<double>(), 0.001);
        QVERIFY(j["notes"].empty());
        // Two runs compared: another version with a different learning rate.
        LightningFixture other(m_version.parent_path() / "version_1");
        other.addCheckpoint(0, 100);
        other.writeHparams("lr: 0.01\nbatch_size: 32\nmodel_name: tiny\n");
        const CliResult diff =
            runCli({"params", run, "--diff", QString::fromStdString(other.root().string())});
        QCOMPARE(diff.exitCode, 0);
        QVERIFY2(diff.out.contains("lr") && diff.out.contains("1 difference"),
                 diff.out.constData());
    }
};

QTEST_GUILESS_MAIN(TestLightningCli)
#include "tst_LightningCli.moc"
