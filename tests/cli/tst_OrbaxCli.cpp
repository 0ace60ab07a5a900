#include "CandleFixture.h"
#include "CliRunner.h"
#include "OrbaxFixture.h"

#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <set>

using namespace ckpt::test;
namespace fs = std::filesystem;

// The CLI on a mixed tree: a CANDLE run beside an Orbax run, "layout" set for each.
class TestOrbaxCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    fs::path m_orbax;

private slots:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        const fs::path base(m_tmp.path().toStdString());
        CandleFixture c(base / "a" / "ckpts");
        c.addEpoch(1, 0.5, 64, true);
        c.addEpoch(2, 0.25);
        c.linkAbsolute("last", 2);
        OrbaxFixture o(base / "b", "checkpoint_");
        o.addStep(10, {{"loss", 0.5}}, 1763800000);
        o.addStep(20, {{"loss", 0.25}}, 1763800060);
        o.addStep(30, {{"loss", 0.125}}, 1763800120);
        m_orbax = o.root();
    }

    void scanJsonHasTheLayoutOfEveryRun()
    {
        const CliResult r = runCli({"scan", "--json", m_tmp.path()});
        QCOMPARE(r.exitCode, 0);
        const auto j = r.json();
        QCOMPARE(j["runs"].size(), std::size_t(2));
        std::set<std::string> layouts;
        for (const auto& run : j["runs"])
            layouts.insert(run["layout"].get<std::string>());
        QCOMPARE(layouts, (std::set<std::string>{"candle", "orbax"}));
    }

    void historyOfAnOrbaxRun()
    {
        const CliResult r = runCli({"history", "--json", QString::fromStdString(m_orbax.string())});
        QCOMPARE(r.exitCode, 0);
        const auto j = r.json();
        QCOMPARE(j["layout"].get<std::string>(), std::string("orbax"));
        QVERIFY2(r.out.contains("\"loss\""), r.out.constData());
        QVERIFY(r.out.contains("0.125"));
    }

    void verifySaysNoChecksum()
    {
        const CliResult r = runCli({"verify", "--json", QString::fromStdString(m_orbax.string())});
        const auto j = r.json();
        QCOMPARE(j["runs"][0]["layout"].get<std::string>(), std::string("orbax"));
        QVERIFY2(r.out.contains("no_checksum") || r.out.contains("no checksum"), r.out.constData());
    }

    void relinkRefuses()
    {
        const CliResult r =
            runCli({"relink", QString::fromStdString(m_orbax.string()), "--last", "10"});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("orbax runs have no movable links"), r.err.constData());
    }

    void pruneDeletesStepFolders()
    {
        const QString run = QString::fromStdString(m_orbax.string());
        CliResult r = runCli({"prune", run, "--keep-limit", "1"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(fs::exists(m_orbax / "checkpoint_10"));
        r = runCli({"prune", run, "--keep-limit", "1", "--yes"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(!fs::exists(m_orbax / "checkpoint_10"));
        QVERIFY(!fs::exists(m_orbax / "checkpoint_20"));
        QVERIFY(fs::exists(m_orbax / "checkpoint_30"));
    }
};

QTEST_GUILESS_MAIN(TestOrbaxCli)
#include "tst_OrbaxCli.moc"
