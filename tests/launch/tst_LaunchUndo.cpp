#include "CandleFixture.h"
#include "CliRunner.h"
#include "DemoRun.h"
#include "launch/CommandTemplate.h"
#include "launch/LaunchPrep.h"
#include "launch/LaunchSweep.h"
#include "launch/Launcher.h"
#include "launch/PreparedLaunches.h"

#include <QElapsedTimer>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <map>

using namespace ckpt;
using test::CandleFixture;
namespace fs = std::filesystem;

// "Everything is undoable until launch and recorded after it": a restart or
// fork applied but not launched is put back exactly, by hand (--prepare-only,
// --undo-prepared) or by itself when the trainer cannot start. Real runs of
// the demo trainer, the real `ckpt`.
class tst_LaunchUndo : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init();
    void prepareOnlyRestartThenUndoGivesTheRunBack();
    void prepareOnlyForkThenUndoRemovesIt();
    void missingProgramLeavesTheRunAsItWas();
    void undoIsRefusedOnceLaunched();
    void applyKeepsThePlannedConfigName();
    void sweepIsMadeAllOrNoneAndAbandonedForksGo();
    void preparedLaunchesRoundTrip();

private:
    fs::path trainParent(int epochs);
    PrepRequest request(const fs::path& root, int from,
                        LaunchPlan::Mode mode = LaunchPlan::Mode::Restart) const;
    // Every file below `dir` but Ckpt Studio's own state (.ckpt-studio/) and
    // ckpt.log (which keeps the audit lines of the relinks and their undo).
    static std::map<std::string, std::string> snapshot(const fs::path& dir);
    test::CliResult cli(QStringList args);

    std::unique_ptr<QTemporaryDir> m_dir;
    fs::path m_base;
    std::string m_config;
};

void tst_LaunchUndo::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_base = m_dir->path().toStdString();
    qputenv("XDG_DATA_HOME", (m_base / "xdg").string().c_str());
}

fs::path tst_LaunchUndo::trainParent(int epochs)
{
    m_config = (m_base / "RUN000" / "config.ini").string();
    return test::trainDemoRun(QStringLiteral(CKPT_DEMO_TRAIN), m_base / "RUN000", m_config,
                              "[Global_Params]\nepochs = " + std::to_string(epochs) +
                                  "\nlearning_rate = 0.01\nsamples_per_class = 40\n"
                                  "ckpt_checksum = True\n");
}

PrepRequest tst_LaunchUndo::request(const fs::path& root, int from, LaunchPlan::Mode mode) const
{
    return test::demoPrepRequest(QStringLiteral(CKPT_DEMO_TRAIN), root, mode, from, m_config);
}

std::map<std::string, std::string> tst_LaunchUndo::snapshot(const fs::path& dir)
{
    std::map<std::string, std::string> out;
    for (auto it = fs::recursive_directory_iterator(dir); it != fs::end(it); ++it) {
        if (it->path().filename() == ".ckpt-studio") {
            it.disable_recursion_pending();
            continue;
        }
        const std::string rel = it->path().lexically_relative(dir).string();
        if (it->path().filename() == "ckpt.log")
            continue;
        if (it->is_symlink())
            out[rel] = "-> " + fs::read_symlink(it->path()).string();
        else if (it->is_regular_file())
            out[rel] = CandleFixture::readText(it->path());
        else
            out[rel] = "(folder)";
    }
    return out;
}

test::CliResult tst_LaunchUndo::cli(QStringList args)
{
    return test::runCli(args, 120000);
}

void tst_LaunchUndo::prepareOnlyRestartThenUndoGivesTheRunBack()
{
    const fs::path root = trainParent(8);
    const fs::path folder = m_base / "RUN000";
    const auto before = snapshot(folder);
    const std::string logBefore = CandleFixture::readText(root / "ckpt.log");
    const QString run = QString::fromStdString(root.string());

    const auto prepared = cli({QStringLiteral("launch"), run, QStringLiteral("--from"),
                               QStringLiteral("5"), QStringLiteral("--set"),
                               QStringLiteral("learning_rate=0.001"), QStringLiteral("--config"),
                               QString::fromStdString(m_config), QStringLiteral("--prepare-only"),
                               QStringLiteral("--"), QStringLiteral(CKPT_DEMO_TRAIN),
                               QStringLiteral("--config_file"), QStringLiteral("{config}"),
                               QStringLiteral("--output_dir"), QStringLiteral("{output_dir}")});
    QVERIFY2(prepared.exitCode == 0, prepared.err.constData());
    QVERIFY2(prepared.out.contains("--undo-prepared"), prepared.out.constData());
    // Applied, not launched: epochs 6..8 aside, last at 5, no record.
    QVERIFY(!fs::exists(root / "epochs/006"));
    QCOMPARE(fs::read_symlink(root / "last").string(), std::string("epochs/005"));
    QVERIFY(fs::exists(root / ".ckpt-studio/superseded"));
    QVERIFY(!fs::exists(LaunchRecord::pathFor(root)));
    QVERIFY(snapshot(folder) != before);

    const auto undone = cli({QStringLiteral("launch"), run, QStringLiteral("--undo-prepared")});
    QVERIFY2(undone.exitCode == 0, undone.err.constData());
    QVERIFY2(undone.out.contains("undid the prepared restart"), undone.out.constData());
    const auto after = snapshot(folder);
    for (const auto& [path, content] : before)
        QVERIFY2(after.count(path) && after.at(path) == content, path.c_str());
    QCOMPARE(after.size(), before.size());
    QVERIFY(!fs::exists(root / ".ckpt-studio/superseded"));
    QVERIFY(!fs::exists(root / ".ckpt-studio/configs"));
    // ckpt.log: as it was, plus the audit lines of the relink and its undo.
    const std::string logAfter = CandleFixture::readText(root / "ckpt.log");
    QVERIFY(logAfter.starts_with(logBefore));
    QVERIFY(logAfter.find("CkptStudio", logBefore.size()) != std::string::npos);

    // Nothing left to undo.
    const auto again = cli({QStringLiteral("launch"), run, QStringLiteral("--undo-prepared")});
    QCOMPARE(again.exitCode, 1);
    QVERIFY2(again.err.contains("no prepared restart or fork"), again.err.constData());
}

void tst_LaunchUndo::prepareOnlyForkThenUndoRemovesIt()
{
    const fs::path root = trainParent(4);
    const auto before = snapshot(m_base / "RUN000");
    const std::string logBefore = CandleFixture::readText(root / "ckpt.log");
    const auto prepared = cli({QStringLiteral("launch"), QString::fromStdString(root.string()),
                               QStringLiteral("--from"), QStringLiteral("2"),
                               QStringLiteral("--fork"), QStringLiteral("--config"),
                               QString::fromStdString(m_config), QStringLiteral("--prepare-only"),
                               QStringLiteral("--"), QStringLiteral(CKPT_DEMO_TRAIN),
                               QStringLiteral("--config_file"), QStringLiteral("{config}")});
    QVERIFY2(prepared.exitCode == 0, prepared.err.constData());
    const fs::path fork = m_base / "RUN000-fork-e002";
    QVERIFY(fs::exists(fork / "ckpts/epochs/002"));
    // The parent's folder names the fork too: --undo-prepared RUN000 finds it.
    const auto undone =
        cli({QStringLiteral("launch"), QString::fromStdString((m_base / "RUN000").string()),
             QStringLiteral("--undo-prepared")});
    QVERIFY2(undone.exitCode == 0, undone.err.constData());
    QVERIFY(!fs::exists(fork));
    QVERIFY(snapshot(m_base / "RUN000") == before);
    QCOMPARE(CandleFixture::readText(root / "ckpt.log"), logBefore); // a fork touches no link
}

void tst_LaunchUndo::missingProgramLeavesTheRunAsItWas()
{
    const fs::path root = trainParent(6);
    const fs::path folder = m_base / "RUN000";
    const auto before = snapshot(folder);
    const fs::path lastBefore = fs::read_symlink(root / "last");
    const auto r = cli({QStringLiteral("launch"), QString::fromStdString(root.string()),
                        QStringLiteral("--from"), QStringLiteral("3"), QStringLiteral("--set"),
                        QStringLiteral("learning_rate=0.5"), QStringLiteral("--config"),
                        QString::fromStdString(m_config), QStringLiteral("--"),
                        QStringLiteral("/no/such/trainer"), QStringLiteral("--config_file"),
                        QStringLiteral("{config}")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("/no/such/trainer"), r.err.constData());
    QVERIFY2(r.err.contains("the restart was undone"), r.err.constData());
    QVERIFY(snapshot(folder) == before);
    QVERIFY(fs::exists(root / "epochs/006"));
    QCOMPARE(fs::read_symlink(root / "last"), lastBefore); // exactly as the trainer wrote it
    QVERIFY(!fs::exists(LaunchRecord::pathFor(root)));
    QVERIFY(!fs::exists(root / ".ckpt-studio/launch"));

    // A fork of a missing program: no fork folder is left.
    const auto f = cli({QStringLiteral("launch"), QString::fromStdString(root.string()),
                        QStringLiteral("--from"), QStringLiteral("3"), QStringLiteral("--fork"),
                        QStringLiteral("--config"), QString::fromStdString(m_config),
                        QStringLiteral("--"), QStringLiteral("no-such-trainer-on-path")});
    QCOMPARE(f.exitCode, 1);
    QVERIFY2(f.err.contains("the fork was removed again"), f.err.constData());
    QVERIFY(!fs::exists(m_base / "RUN000-fork-e003"));
}

void tst_LaunchUndo::undoIsRefusedOnceLaunched()
{
    const fs::path root = trainParent(4);
    const PrepRequest r = request(root, 2);
    const LaunchRegistry registry((m_base / "registry.json").string());
    auto prepared = LaunchPrep::prepare(r, registry);
    QVERIFY2(prepared, prepared ? "" : prepared.error().message.c_str());
    QVERIFY(!LaunchPrep::undo(*prepared)); // not applied: nothing to undo
    QVERIFY(LaunchPrep::apply(*prepared));
    auto record = Launcher(registry).launch(prepared->plan);
    QVERIFY2(record, record ? "" : record.error().message.c_str());
    const Status undone = LaunchPrep::undo(*prepared);
    QVERIFY(!undone);
    QVERIFY2(undone.error().message.find("recorded, not undone") != std::string::npos,
             undone.error().message.c_str());
    QTRY_VERIFY_WITH_TIMEOUT(
        Launcher::refresh(root) && isFinished(Launcher::refresh(root)->state()), 60000);
    QVERIFY(fs::exists(root / "epochs/004"));
}

void tst_LaunchUndo::applyKeepsThePlannedConfigName()
{
    // The argv and batch script shown before launch name the edited config:
    // applying a second later must not rename it.
    const fs::path root = trainParent(3);
    const PrepRequest r = request(root, 2, LaunchPlan::Mode::Fork);
    auto prepared = LaunchPrep::prepare(r, LaunchRegistry((m_base / "r.json").string()));
    QVERIFY(prepared);
    const auto planned = prepared->plan.argv;
    const std::string config = prepared->plan.configFile;
    QTest::qSleep(1100);
    QVERIFY(LaunchPrep::apply(*prepared));
    QCOMPARE(prepared->plan.configFile, config);
    QCOMPARE(prepared->plan.argv, planned);
    QVERIFY(fs::exists(config));
    QVERIFY(LaunchPrep::undo(*prepared));
    QVERIFY(!fs::exists(prepared->runFolder));
}

void tst_LaunchUndo::sweepIsMadeAllOrNoneAndAbandonedForksGo()
{
    const fs::path root = trainParent(3);
    const auto before = snapshot(m_base / "RUN000");
    const PrepRequest base = request(root, 2);
    const LaunchRegistry registry((m_base / "r.json").string());
    // The same value twice would share a folder: refused before anything is made.
    auto twice = LaunchSweep::prepare(base, ParamEdit::parseSweep("learning_rate=0.1,0.1").value(),
                                      registry);
    QVERIFY(!twice);
    QVERIFY2(twice.error().message.find("share") != std::string::npos,
             twice.error().message.c_str());
    auto runs = LaunchSweep::prepare(base, ParamEdit::parseSweep("learning_rate=0.1,0.2").value(),
                                     registry);
    QVERIFY2(runs, runs ? "" : runs.error().message.c_str());
    QCOMPARE(runs->size(), std::size_t(2));
    QCOMPARE(runs->at(1).runFolder, m_base / "RUN000-fork-e002-learning_rate-0.2");
    QVERIFY(LaunchSweep::apply(*runs));
    QVERIFY(fs::exists(m_base / "RUN000-fork-e002-learning_rate-0.1/ckpts/epochs/002"));
    // Never started (the app quit before the queue reached them): removed.
    SweepQueue queue(std::move(*runs), 1, Launcher(registry));
    QCOMPARE(queue.abandonQueued(), 2);
    QVERIFY(queue.done());
    QVERIFY(!fs::exists(m_base / "RUN000-fork-e002-learning_rate-0.1"));
    QVERIFY(!fs::exists(m_base / "RUN000-fork-e002-learning_rate-0.2"));
    QVERIFY(snapshot(m_base / "RUN000") == before);
}

void tst_LaunchUndo::preparedLaunchesRoundTrip()
{
    PreparedLaunch p;
    p.plan.mode = LaunchPlan::Mode::Restart;
    p.parentRoot = "/runs/RUN000/ckpts";
    p.plan.runRoot = p.parentRoot.string();
    p.plan.parent = LaunchParent{p.parentRoot.string(), 5, {}, {}, std::nullopt};
    p.runFolder = "/runs/RUN000";
    p.supersededDir = "/runs/RUN000/ckpts/.ckpt-studio/superseded/x";
    p.superseded = {6, 7};
    p.applied.done = true;
    p.applied.time = "2026-11-24T10:00:00Z";
    p.applied.config = "/runs/RUN000/ckpts/.ckpt-studio/configs/config.ini";
    p.applied.moved = {{"/runs/RUN000/ckpts/epochs/006", "/x/epochs/006"}};
    p.applied.journalIds = {"a", "b"};
    const PreparedLaunches store((m_base / "prepared.json").string());
    QVERIFY(store.add(p));
    auto found = store.latestFor("/runs/RUN000/");
    QVERIFY(found && *found);
    const PreparedLaunch& q = **found;
    QCOMPARE(q.applied.moved, p.applied.moved);
    QCOMPARE(q.applied.journalIds, p.applied.journalIds);
    QCOMPARE(q.plan.parent->epoch, 5);
    QCOMPARE(q.superseded, p.superseded);
    QVERIFY(store.remove(p.plan.runRoot));
    QVERIFY(!*store.latestFor("/runs/RUN000"));
}

QTEST_GUILESS_MAIN(tst_LaunchUndo)
#include "tst_LaunchUndo.moc"
