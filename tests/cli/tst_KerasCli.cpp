#include "CandleFixture.h"
#include "CliRunner.h"
#include "KerasFixture.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>

using namespace ckpt::test;
namespace fs = std::filesystem;

// The CLI on a mixed tree: a CANDLE run beside a Keras ModelCheckpoint folder and
// a Synalinks one, "layout" set for each; history from the names' metrics.
class TestKerasCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    fs::path m_keras;
    fs::path m_synalinks;

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const fs::path base(m_tmp.path().toStdString());
        CandleFixture c(base / "a" / "ckpts");
        c.addEpoch(1, 0.5, 64, true);
        c.addEpoch(2, 0.25);
        m_keras = base / "b" / "keras";
        KerasFixture::h5(m_keras / "weights.01-0.50.h5", 1);
        KerasFixture::h5(m_keras / "weights.02-0.25.h5", 2);
        KerasFixture::h5(m_keras / "weights.03-0.12.h5", 3);
        m_synalinks = base / "c";
        KerasFixture::variables(m_synalinks / "ckpt-01-0.40.variables.json", 0.1);
        KerasFixture::variables(m_synalinks / "ckpt-02-0.70.variables.json", 0.2);
        // Unrelated model files are no run.
        KerasFixture::h5(base / "d" / "resnet.h5");
    }

    void scanJsonHasTheLayoutOfEveryRun()
    {
        const CliResult r = runCli({"scan", "--json", m_tmp.path()});
        QCOMPARE(r.exitCode, 0);
        const auto j = r.json();
        std::map<std::string, std::size_t> epochs;
        for (const auto& run : j["runs"])
            epochs[run["layout"].get<std::string>()] = run["epochs"].size();
        const std::map<std::string, std::size_t> want{
            {"candle", 2}, {"keras", 3}, {"synalinks", 2}};
        QCOMPARE(epochs, want);
    }

    void historyOfAKerasRun()
    {
        const CliResult r = runCli({"history", "--json", QString::fromStdString(m_keras.string())});
        QCOMPARE(r.exitCode, 0);
        const auto j = r.json();
        QCOMPARE(j["layout"].get<std::string>(), std::string("keras"));
        QVERIFY2(r.out.contains("\"val_loss\""), r.out.constData());
        QVERIFY(r.out.contains("0.12"));
    }

    void historyOfASynalinksRun()
    {
        const CliResult r =
            runCli({"history", "--json", QString::fromStdString(m_synalinks.string())});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.json()["layout"].get<std::string>(), std::string("synalinks"));
        QVERIFY2(r.out.contains("\"val_reward\""), r.out.constData());
        QVERIFY(r.out.contains("0.7"));
    }
};

QTEST_GUILESS_MAIN(TestKerasCli)
#include "tst_KerasCli.moc"
