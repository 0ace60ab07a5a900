#include "layout/DirReader.h"
#include "orbax/OrbaxLayout.h"

#include <QTemporaryDir>
#include <QTest>

#include <CandleFixture.h>
#include <OrbaxFixture.h>
#include <filesystem>

using namespace ckpt;
using test::CandleFixture;
using test::OrbaxFixture;
namespace fs = std::filesystem;

class tst_OrbaxLayout : public QObject
{
    Q_OBJECT

private slots:
    void stepNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("step");
        QTest::newRow("bare step") << "1200" << 1200;
        QTest::newRow("prefixed") << "checkpoint_40" << 40;
        QTest::newRow("prefix with underscores") << "my_run_7" << 7;
        QTest::newRow("tmp") << "40.orbax-checkpoint-tmp" << -1;
        QTest::newRow("tmp with ts") << "ckpt_40.orbax-checkpoint-tmp-1763800123" << -1;
        QTest::newRow("hidden") << ".40" << -1;
        QTest::newRow("no digits") << "checkpoint_" << -1;
        QTest::newRow("words") << "default" << -1;
        QTest::newRow("leading underscore") << "_40" << -1;
    }
    void stepNames()
    {
        QFETCH(QString, name);
        QFETCH(int, step);
        const auto parsed = OrbaxLayout::instance().epochNumberOf(name.toStdString());
        QCOMPARE(parsed.value_or(-1), step);
    }

    void loadsStepsMetricsAndTmp_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::newRow("<root>/<step>") << "";
        QTest::newRow("<root>/<prefix>_<step>") << "ckpt_";
    }
    void loadsStepsMetricsAndTmp()
    {
        QFETCH(QString, prefix);
        QTemporaryDir tmp;
        OrbaxFixture f(fs::path(tmp.path().toStdString()) / "run", prefix.toStdString());
        f.addStep(100, {{"loss", 0.5}, {"accuracy", 0.75}}, 1763800000);
        f.addStep(200, {{"loss", 0.25}, {"accuracy", 0.875}}, 1763800060);
        const fs::path tmpDir = f.addTmp(300);

        const Layout& layout = OrbaxLayout::instance();
        auto listing = DirReader::list(f.root());
        QVERIFY(listing.ok());
        QVERIFY(layout.isRunRoot(*listing));
        const Run run = layout.loadRun(f.root());
        QCOMPARE(run.layout, std::string("orbax"));
        QCOMPARE(run.epochs.size(), std::size_t(2));
        const Epoch& e = run.epochs[1];
        QCOMPARE(e.number, 200);
        QCOMPARE(e.step, std::optional<std::int64_t>(200));
        QCOMPARE(e.dir, prefix.toStdString() + "200");
        QVERIFY(e.hasRecord());
        QCOMPARE(e.metric("loss"), std::optional<double>(0.25));
        QCOMPARE(e.metric("accuracy"), std::optional<double>(0.875));
        QVERIFY(!e.savedAt.empty());
        QCOMPARE(std::string(*e.metadata.get("commit_timestamp_nsecs")),
                 std::string("1763800060000000000"));
        QVERIFY(e.metadata.contains("custom_metadata"));
        QVERIFY(!e.metadata.contains("metrics") || true);
        QVERIFY(e.problems.empty());
        // The tmp folder is in progress, never an epoch.
        QCOMPARE(run.inProgress.size(), std::size_t(1));
        QCOMPARE(run.inProgress[0].path, tmpDir.string());
        QCOMPARE(run.inProgress[0].epoch, std::optional<int>(300));
        QVERIFY(!run.findEpoch(300));
        QCOMPARE(run.problems.size(), std::size_t(1));
        QVERIFY(run.problems[0].kind == ProblemKind::InterruptedSave);
        QVERIFY(run.links.empty());
        QVERIFY(!layout.linksMovable());
        QVERIFY(!layout.recordsChecksums());
        QVERIFY(layout.canDeleteEpochs());
        // Step folders are the run's own: discovery does not walk into them.
        QVERIFY(layout.ownsSubdirectory(prefix.toStdString() + "100"));
        QVERIFY(layout.ownsSubdirectory(tmpDir.filename().string()));
    }

    void badMetadataIsAProblem_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expect");
        QTest::newRow("truncated") << "{\"metrics\": {\"loss\": 0."
                                   << "_CHECKPOINT_METADATA";
        QTest::newRow("not an object") << "[1, 2]"
                                       << "expected a JSON object";
        QTest::newRow("empty") << ""
                               << "_CHECKPOINT_METADATA";
        QTest::newRow("missing") << "<missing>"
                                 << "is missing";
    }
    void badMetadataIsAProblem()
    {
        QFETCH(QString, text);
        QFETCH(QString, expect);
        QTemporaryDir tmp;
        OrbaxFixture f(fs::path(tmp.path().toStdString()) / "run");
        f.addStep(1, {{"loss", 1.0}});
        f.addStep(2, {{"loss", 0.5}});
        if (text == "<missing>")
            fs::remove(f.stepDir(2) / "_CHECKPOINT_METADATA");
        else
            f.writeMetadata(2, text.toStdString());
        const Run run = OrbaxLayout::instance().loadRun(f.root());
        QCOMPARE(run.epochs.size(), std::size_t(2));
        const Epoch& bad = run.epochs[1];
        QVERIFY(!bad.hasRecord());
        QCOMPARE(bad.problems.size(), std::size_t(1));
        QVERIFY(bad.problems[0].kind == ProblemKind::BadInfo);
        QVERIFY2(QString::fromStdString(bad.problems[0].message).contains(expect),
                 bad.problems[0].message.c_str());
        QVERIFY(run.epochs[0].problems.empty());
    }

    void loadEpochRereadsOneStep()
    {
        QTemporaryDir tmp;
        OrbaxFixture f(fs::path(tmp.path().toStdString()) / "run", "checkpoint_");
        f.addStep(10, {{"loss", 1.0}});
        const Layout& layout = OrbaxLayout::instance();
        const Run run = layout.loadRun(f.root());
        f.addStep(20, {{"loss", 0.5}});
        auto e = layout.loadEpoch(run, 20);
        QVERIFY(e.has_value());
        QCOMPARE(e->dir, std::string("checkpoint_20"));
        QCOMPARE(e->metric("loss"), std::optional<double>(0.5));
        QVERIFY(!layout.loadEpoch(run, 30));
    }

    void candleEpochsFolderIsNoOrbaxRun()
    {
        // epochs/NNN of a CANDLE run look like step folders but carry no Orbax metadata.
        QTemporaryDir tmp;
        CandleFixture c(fs::path(tmp.path().toStdString()) / "ckpts");
        c.addEpoch(1, 0.5);
        auto listing = DirReader::list(c.root() / "epochs");
        QVERIFY(listing.ok());
        QVERIFY(!OrbaxLayout::instance().isRunRoot(*listing));
    }
};

QTEST_GUILESS_MAIN(tst_OrbaxLayout)
#include "tst_OrbaxLayout.moc"
