#include "CandleFixture.h"
#include "CliRunner.h"
#include "DemoRun.h"
#include "candle/CandleLayout.h"
#include "candle/CandleResume.h"
#include "io/AtomicFile.h"
#include "launch/CommandTemplate.h"
#include "launch/LaunchPrep.h"
#include "launch/Launcher.h"
#include "launch/Lineage.h"
#include "launch/RunConfigFinder.h"
#include "ops/Pruner.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>
#include <map>
#include <sys/stat.h>

using namespace ckpt;
using test::CandleFixture;
namespace fs = std::filesystem;

// Restarts and forks of real runs of the demo trainer, launched for real.
class tst_LaunchPrep : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void restartMovesLaterEpochsAsideAndResumesWithTheNewRate();
    void forkLeavesTheParentByteIdentical();
    void corruptedEpochIsRefused();
    void malformedValueNamesFileLineAndKey();
    void commandWithoutRestartModeGetsItInTheConfig();
    void unknownEpochAndNonRestartableLayoutsAreRefused();
    void cutTrainingLogKeepsTheFirstEpochs();
    void cliDryRunChangesNothing();
    void cliRestartStreamsAndExitsWithTheRunsStatus();
    void cliForkIsInTheLineageAndPinsItsEpoch();
    void cliSweepForksOncePerValue();

private:
    // Trains RUN000 (10 epochs, lr 0.01) with the demo trainer; returns its checkpoint root.
    fs::path trainParent(int epochs = 10);
    PrepRequest request(const fs::path& root, LaunchPlan::Mode mode, int from) const;
    // Every file below `dir` (links by their text) -> its content.
    static std::map<std::string, std::string> snapshot(const fs::path& dir);
    static void waitCompleted(const std::string& root);

    std::unique_ptr<QTemporaryDir> m_dir;
    fs::path m_base;
    std::string m_config;
};

void tst_LaunchPrep::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
}

void tst_LaunchPrep::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    m_base = m_dir->path().toStdString();
    // The ckpt processes the CLI tests start keep their registry here too.
    qputenv("XDG_DATA_HOME", (m_base / "xdg").string().c_str());
    m_config = (m_base / "RUN000" / "config.ini").string();
}

fs::path tst_LaunchPrep::trainParent(int epochs)
{
    return test::trainDemoRun(
        QStringLiteral(CKPT_DEMO_TRAIN), m_base / "RUN000", m_config,
        "[Global_Params]\n# the demo's spirals\nepochs = " + std::to_string(epochs) +
            "\nlearning_rate = 0.01\nsamples_per_class = 40\n"
            "ckpt_checksum = True\n");
}

PrepRequest tst_LaunchPrep::request(const fs::path& root, LaunchPlan::Mode mode, int from) const
{
    return test::demoPrepRequest(QStringLiteral(CKPT_DEMO_TRAIN), root, mode, from, m_config);
}

std::map<std::string, std::string> tst_LaunchPrep::snapshot(const fs::path& dir)
{
    return test::treeSnapshot(dir);
}

void tst_LaunchPrep::waitCompleted(const std::string& root)
{
    QElapsedTimer timer;
    timer.start();
    RunState state = RunState::Pending;
    while (timer.elapsed() < 60000) {
        auto rec = Launcher::refresh(root);
        QVERIFY2(rec, rec ? "" : rec.error().message.c_str());
        state = rec->state();
        if (isFinished(state))
            break;
        QTest::qWait(100);
    }
    if (state != RunState::Completed) {
        // Say what happened: the record and the end of the trainer's output.
        qWarning("record: %s", CandleFixture::readText(LaunchRecord::pathFor(root)).c_str());
        if (auto rec = LaunchRecord::load(LaunchRecord::pathFor(root)); rec && rec->latest()) {
            const std::string log = CandleFixture::readText(rec->attempts.back().logPath);
            qWarning("output: %s", log.substr(log.size() > 2000 ? log.size() - 2000 : 0).c_str());
        }
    }
    QCOMPARE(QString::fromLatin1(runStateName(state)), QStringLiteral("completed"));
}

void tst_LaunchPrep::restartMovesLaterEpochsAsideAndResumesWithTheNewRate()
{
    const fs::path root = trainParent();
    const std::string originalConfig = CandleFixture::readText(m_config);
    std::map<int, std::string> oldModels;
    for (int e = 7; e <= 10; ++e)
        oldModels[e] =
            CandleFixture::readText(root / "epochs" / CandleLayout::epochDirName(e) / "model.h5");
    const std::string oldLog = CandleFixture::readText(m_base / "RUN000/training.log");

    PrepRequest r = request(root, LaunchPlan::Mode::Restart, 6);
    r.edits.push_back(ParamEdit::parse("learning_rate=0.001").value());
    const LaunchRegistry registry((m_base / "registry.json").string());
    auto prepared = LaunchPrep::prepare(r, registry);
    QVERIFY2(prepared, prepared ? "" : prepared.error().message.c_str());
    QCOMPARE(prepared->superseded, (std::vector<int>{7, 8, 9, 10}));
    QVERIFY(prepared->checkFailures.empty());
    QCOMPARE(prepared->plan.workingDir, (m_base / "RUN000").string());
    // Preparing changed nothing.
    QVERIFY(fs::exists(root / "epochs/010"));
    QVERIFY(!fs::exists(root / ".ckpt-studio/superseded"));

    QVERIFY(LaunchPrep::apply(*prepared));
    for (int e = 7; e <= 10; ++e) {
        const std::string name = CandleLayout::epochDirName(e);
        QVERIFY(!fs::exists(root / "epochs" / name));
        QCOMPARE(CandleFixture::readText(prepared->supersededDir / "epochs" / name / "model.h5"),
                 oldModels[e]);
    }
    QCOMPARE(CandleFixture::readText(prepared->supersededDir / "training.log"), oldLog);
    QVERIFY(fs::exists(prepared->supersededDir / "ckpt.log"));
    QCOMPARE(fs::canonical(root / "last"), fs::canonical(root / "epochs/006"));
    QVERIFY(fs::exists(root / "best"));
    QVERIFY(fs::canonical(root / "best") <= fs::canonical(root / "epochs/006"));
    // The edited config is a new file; the original is untouched.
    QCOMPARE(CandleFixture::readText(m_config), originalConfig);
    const std::string edited = CandleFixture::readText(prepared->plan.configFile);
    QVERIFY2(edited.find("learning_rate = 0.001") != std::string::npos, edited.c_str());
    QVERIFY(edited.find("# the demo's spirals") != std::string::npos);

    auto record = Launcher(registry).launch(prepared->plan);
    QVERIFY2(record, record ? "" : record.error().message.c_str());
    waitCompleted(root.string());
    for (int e = 7; e <= 10; ++e)
        QVERIFY(fs::exists(root / "epochs" / CandleLayout::epochDirName(e) / "ckpt-info.json"));
    QVERIFY(CandleFixture::readText(root / "epochs/010/model.h5") != oldModels[10]);
    const std::string log = CandleFixture::readText(m_base / "RUN000/training.log");
    QVERIFY2(log.find(",0.0010000000474974513,") != std::string::npos, log.c_str());
    auto saved = LaunchRecord::load(LaunchRecord::pathFor(root));
    QVERIFY(saved);
    const LaunchPlan& plan = saved->latest()->plan;
    QVERIFY(plan.mode == LaunchPlan::Mode::Restart);
    QVERIFY(plan.parent && plan.parent->epoch == 6 && plan.parent->runRoot == root.string());
    QVERIFY(!plan.parent->checksum.empty());
    QCOMPARE(plan.baseConfigFile, m_config);

    // Which parameters trained which epoch: 1..6 the original file, 7.. the
    // restart's. A fork or restart from an epoch starts from that epoch's.
    QCOMPARE(RunConfigFinder::configFor(root, registry).value(), plan.configFile);
    QCOMPARE(RunConfigFinder::configFor(root, registry, 8).value(), plan.configFile);
    QCOMPARE(RunConfigFinder::configFor(root, registry, 6).value(), m_config);
    QCOMPARE(RunConfigFinder::configFor(root, registry, 2).value(), m_config);
    for (const auto& [from, before] : {std::pair(4, "0.01"), std::pair(8, "0.001")}) {
        PrepRequest fork = request(root, LaunchPlan::Mode::Fork, from);
        fork.configFile.clear(); // the run's own, as the launch dialog asks
        fork.edits.push_back(ParamEdit::parse("learning_rate=0.05").value());
        auto forked = LaunchPrep::prepare(fork, registry);
        QVERIFY2(forked, forked ? "" : forked.error().message.c_str());
        QCOMPARE(forked->plan.parent->changes.at(0).from, std::string(before));
    }
    const test::CliResult cli =
        test::runCli({QStringLiteral("params"), QString::fromStdString(root.string()),
                      QStringLiteral("--epoch"), QStringLiteral("5"), QStringLiteral("--json")});
    QCOMPARE(cli.exitCode, 0);
    QCOMPARE(cli.json()["file"].get<std::string>(), m_config);
    QCOMPARE(test::runCli({QStringLiteral("params"), QString::fromStdString(root.string()),
                           QStringLiteral("--epoch"), QStringLiteral("x")})
                 .exitCode,
             2);
}

void tst_LaunchPrep::forkLeavesTheParentByteIdentical()
{
    const fs::path root = trainParent();
    const auto before = snapshot(m_base / "RUN000");
    PrepRequest r = request(root, LaunchPlan::Mode::Fork, 6);
    r.edits.push_back(ParamEdit::parse("learning_rate=0.05").value());
    const LaunchRegistry registry((m_base / "registry.json").string());
    auto prepared = LaunchPrep::prepare(r, registry);
    QVERIFY2(prepared, prepared ? "" : prepared.error().message.c_str());
    QCOMPARE(prepared->runFolder, m_base / "RUN000-fork-e006");
    QCOMPARE(prepared->plan.runRoot, (m_base / "RUN000-fork-e006/ckpts").string());
    QVERIFY(prepared->superseded.empty());
    QVERIFY(LaunchPrep::apply(*prepared));

    const fs::path fork = prepared->plan.runRoot;
    struct stat a
    {
    }, b{};
    QCOMPARE(::stat((root / "epochs/006/model.h5").c_str(), &a), 0);
    QCOMPARE(::stat((fork / "epochs/006/model.h5").c_str(), &b), 0);
    QCOMPARE(a.st_ino, b.st_ino); // hard-linked, not copied
    QCOMPARE(fs::read_symlink(fork / "last").string(), std::string("epochs/006"));
    // training.log cut to the fork's six epochs: the header and rows 0..5.
    const std::string cut = CandleFixture::readText(m_base / "RUN000-fork-e006/training.log");
    QCOMPARE(std::count(cut.begin(), cut.end(), '\n'), 7);

    auto record = Launcher(registry).launch(prepared->plan);
    QVERIFY2(record, record ? "" : record.error().message.c_str());
    waitCompleted(fork.string());
    QVERIFY(fs::exists(fork / "epochs/010/ckpt-info.json"));
    QVERIFY(snapshot(m_base / "RUN000") == before);
    // The family tree has the edge with its change; the parent's epoch 6 is pinned.
    auto edges = Lineage::edges(registry);
    QVERIFY(edges);
    const auto family = Lineage::familyOf(*edges, root.string());
    QCOMPARE(family.descendants.size(), std::size_t(1));
    QCOMPARE(family.descendants[0].childRoot, fork.string());
    QCOMPARE(family.descendants[0].epoch, 6);
    QCOMPARE(family.descendants[0].changes.at(0).from, std::string("0.01"));
    QCOMPARE(family.descendants[0].changes.at(0).to, std::string("0.05"));
    QCOMPARE(Lineage::familyOf(*edges, fork.string()).ancestors.size(), std::size_t(1));
    const auto pins = Lineage::forkPins(root.string(), registry);
    QCOMPARE(pins.size(), std::size_t(1));
    QCOMPARE(pins.begin()->first, 6);
    const Run parent = CandleLayout::instance().loadRun(root);
    const PrunePlan plan = Pruner::plan(parent, KeepPolicy{KeepMode::Linear, 0}, pins);
    QVERIFY(std::none_of(plan.toDelete.begin(), plan.toDelete.end(),
                         [](const PruneCandidate& c) { return c.epoch == 6; }));
    QCOMPARE(plan.toDelete.size(),
             std::size_t(8)); // all but 6 (pinned) and 10 (last, best, newest)

    // A second fork from the same epoch gets its own folder.
    auto again = LaunchPrep::prepare(r, registry);
    QVERIFY(again);
    QCOMPARE(again->runFolder, m_base / "RUN000-fork-e006-2");
}

void tst_LaunchPrep::corruptedEpochIsRefused()
{
    const fs::path root = trainParent(8);
    {
        std::fstream f(root / "epochs/006/model.h5",
                       std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(100);
        f.put('\x55');
    }
    const auto before = snapshot(root);
    const LaunchRegistry registry((m_base / "registry.json").string());
    auto refused = LaunchPrep::prepare(request(root, LaunchPlan::Mode::Restart, 6), registry);
    QVERIFY(!refused);
    QVERIFY2(refused.error().message.find("checksum mismatch") != std::string::npos,
             refused.error().message.c_str());
    QVERIFY(refused.error().message.find((root / "epochs/006/model.h5").string()) !=
            std::string::npos);
    QVERIFY(snapshot(root) == before);

    PrepRequest forced = request(root, LaunchPlan::Mode::Restart, 6);
    forced.force = true;
    auto prepared = LaunchPrep::prepare(forced, registry);
    QVERIFY(prepared);
    QCOMPARE(prepared->checkFailures.size(), std::size_t(1));
}

void tst_LaunchPrep::malformedValueNamesFileLineAndKey()
{
    const fs::path root = trainParent(3);
    CandleFixture::writeText(m_config, "[Global_Params]\nepochs = 3\nlearning_rate = [0.1, \n");
    auto refused = LaunchPrep::prepare(request(root, LaunchPlan::Mode::Restart, 2),
                                       LaunchRegistry((m_base / "registry.json").string()));
    QVERIFY(!refused);
    const std::string& m = refused.error().message;
    QVERIFY2(m.find(m_config + ":3:") != std::string::npos, m.c_str()); // file:line
    QVERIFY2(m.find("learning_rate") != std::string::npos, m.c_str());
}

// A template that passes no {ckpt_restart_mode} leaves it to the config; a
// config saying "off" would retrain from epoch 1 over the kept epochs.
void tst_LaunchPrep::commandWithoutRestartModeGetsItInTheConfig()
{
    const fs::path root = trainParent(3);
    const LaunchRegistry registry((m_base / "registry.json").string());
    PrepRequest r = request(root, LaunchPlan::Mode::Restart, 2);
    auto withPlaceholder = LaunchPrep::prepare(r, registry);
    QVERIFY(withPlaceholder);
    QVERIFY(withPlaceholder->configText.find("ckpt_restart_mode") == std::string::npos);

    r.commandTemplate = std::string(CKPT_DEMO_TRAIN) + " --config_file {config}";
    auto without = LaunchPrep::prepare(r, registry);
    QVERIFY2(without, without ? "" : without.error().message.c_str());
    QVERIFY2(without->configText.find("ckpt_restart_mode = 'required'") != std::string::npos,
             without->configText.c_str());
    const auto& changes = without->plan.parent->changes;
    QVERIFY(std::any_of(changes.begin(), changes.end(), [](const auto& c) {
        return c.key == "ckpt_restart_mode" && c.to == "'required'";
    }));
    QVERIFY(LaunchPrep::describe(*without).find("ckpt_restart_mode") != std::string::npos);
}

void tst_LaunchPrep::unknownEpochAndNonRestartableLayoutsAreRefused()
{
    const fs::path root = trainParent(3);
    const LaunchRegistry registry((m_base / "registry.json").string());
    auto missing = LaunchPrep::prepare(request(root, LaunchPlan::Mode::Restart, 9), registry);
    QVERIFY(!missing);
    QVERIFY2(missing.error().message.find("no epoch 9") != std::string::npos,
             missing.error().message.c_str());
    auto notARun = LaunchPrep::prepare(request(m_base, LaunchPlan::Mode::Fork, 1), registry);
    QVERIFY(!notARun);
    QVERIFY(notARun.error().message.find("no checkpoint run") != std::string::npos);
}

void tst_LaunchPrep::cutTrainingLogKeepsTheFirstEpochs()
{
    const std::string log = "epoch,loss\n0,1.0\n1,0.9\n2,0.8\n3,0.7";
    QCOMPARE(CandleResume::cutTrainingLog(log, 2), std::string("epoch,loss\n0,1.0\n1,0.9\n"));
    QCOMPARE(CandleResume::cutTrainingLog(log, 0), std::string("epoch,loss\n"));
    QCOMPARE(CandleResume::cutTrainingLog("", 3), std::string());
    QCOMPARE(LaunchPrep::runFolderOf("/x/RUN/save/ckpts"), fs::path("/x/RUN"));
    QCOMPARE(LaunchPrep::runFolderOf("/x/RUN/ckpts"), fs::path("/x/RUN"));
    // Each format's rule: Lightning's trainer works above lightning_logs.
    QCOMPARE(LaunchPrep::runFolderOf("/x/RUN/lightning_logs/version_3/"), fs::path("/x/RUN"));
    QCOMPARE(LaunchPrep::runFolderOf("/x/RUN/steps"), fs::path("/x/RUN/steps"));
}

void tst_LaunchPrep::cliDryRunChangesNothing()
{
    const fs::path root = trainParent(5);
    const auto before = snapshot(m_base / "RUN000");
    const test::CliResult r = test::runCli(
        {QStringLiteral("launch"), QString::fromStdString(root.string()), QStringLiteral("--from"),
         QStringLiteral("3"), QStringLiteral("--config"), QString::fromStdString(m_config),
         QStringLiteral("--set"), QStringLiteral("learning_rate=0.002"),
         QStringLiteral("--dry-run"), QStringLiteral("--json"), QStringLiteral("--"),
         QStringLiteral(CKPT_DEMO_TRAIN), QStringLiteral("--config_file"),
         QStringLiteral("{config}"), QStringLiteral("--output_dir"), QStringLiteral("{output_dir}"),
         QStringLiteral("--epochs"), QStringLiteral("{epochs}")});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const auto j = r.json();
    QCOMPARE(j.at("mode").get<std::string>(), std::string("restart"));
    QVERIFY2(j.at("superseded") == nlohmann::json::array({4, 5}), j.dump().c_str());
    QCOMPARE(j.at("state").get<std::string>(), std::string("planned"));
    QCOMPARE(j.at("argv").at(0).get<std::string>(), std::string(CKPT_DEMO_TRAIN));
    QVERIFY(snapshot(m_base / "RUN000") == before);
}

void tst_LaunchPrep::cliRestartStreamsAndExitsWithTheRunsStatus()
{
    const fs::path root = trainParent(5);
    const test::CliResult r = test::runCli(
        {QStringLiteral("launch"), QString::fromStdString(root.string()), QStringLiteral("--from"),
         QStringLiteral("3"), QStringLiteral("--config"), QString::fromStdString(m_config),
         QStringLiteral("--set"), QStringLiteral("learning_rate=0.002"), QStringLiteral("--"),
         QStringLiteral(CKPT_DEMO_TRAIN), QStringLiteral("--config_file"),
         QStringLiteral("{config}"), QStringLiteral("--output_dir"), QStringLiteral("{output_dir}"),
         QStringLiteral("--epochs"), QStringLiteral("{epochs}"),
         QStringLiteral("--ckpt_restart_mode"), QStringLiteral("{ckpt_restart_mode}")},
        120000);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY2(r.out.contains("Restarting from") && r.out.contains("Epoch 5/5"), r.out.constData());
    QVERIFY(r.out.contains("lr: 0.002"));
    QVERIFY(r.err.contains("move aside:  epochs 4, 5"));
    // The same run, restarted again from an epoch that is not there, fails and says so.
    const test::CliResult bad =
        test::runCli({QStringLiteral("launch"), QString::fromStdString(root.string()),
                      QStringLiteral("--from"), QStringLiteral("42")});
    QCOMPARE(bad.exitCode, 1);
    QVERIFY2(bad.err.contains("no epoch 42"), bad.err.constData());
    // RUN named by its folder (RUN000, not RUN000/ckpts), as history, verify
    // and lineage take it; a folder with no run says what it looked for.
    const test::CliResult byFolder = test::runCli(
        {QStringLiteral("launch"), QString::fromStdString((m_base / "RUN000").string()),
         QStringLiteral("--from"), QStringLiteral("2"), QStringLiteral("--config"),
         QString::fromStdString(m_config), QStringLiteral("--dry-run"), QStringLiteral("--json")});
    QVERIFY2(byFolder.exitCode == 0, byFolder.err.constData());
    QCOMPARE(byFolder.json().at("run").get<std::string>(), root.string());
    const fs::path empty = m_base / "EMPTY";
    fs::create_directories(empty);
    const test::CliResult none =
        test::runCli({QStringLiteral("launch"), QString::fromStdString(empty.string()),
                      QStringLiteral("--from"), QStringLiteral("2"), QStringLiteral("--dry-run")});
    QCOMPARE(none.exitCode, 2);
    QVERIFY2(none.err.contains("no checkpoint run here (looked for runs of every known layout"),
             none.err.constData());
}

void tst_LaunchPrep::cliForkIsInTheLineageAndPinsItsEpoch()
{
    const fs::path root = trainParent(5);
    const test::CliResult launched =
        test::runCli({QStringLiteral("launch"),
                      QString::fromStdString(root.string()),
                      QStringLiteral("--from"),
                      QStringLiteral("2"),
                      QStringLiteral("--fork"),
                      QStringLiteral("--into"),
                      QString::fromStdString((m_base / "FORK").string()),
                      QStringLiteral("--config"),
                      QString::fromStdString(m_config),
                      QStringLiteral("--set"),
                      QStringLiteral("learning_rate=0.003"),
                      QStringLiteral("--json"),
                      QStringLiteral("--"),
                      QStringLiteral(CKPT_DEMO_TRAIN),
                      QStringLiteral("--config_file"),
                      QStringLiteral("{config}"),
                      QStringLiteral("--output_dir"),
                      QStringLiteral("{output_dir}"),
                      QStringLiteral("--ckpt_restart_mode"),
                      QStringLiteral("{ckpt_restart_mode}")},
                     120000);
    QVERIFY2(launched.exitCode == 0, launched.err.constData());
    const std::string fork = (m_base / "FORK/ckpts").string();
    QCOMPARE(launched.json().at("run").get<std::string>(), fork);
    QCOMPARE(launched.json().at("state").get<std::string>(), std::string("completed"));

    const test::CliResult lineage = test::runCli(
        {QStringLiteral("lineage"), QString::fromStdString(fork), QStringLiteral("--json")});
    QVERIFY2(lineage.exitCode == 0, lineage.err.constData());
    const auto from = lineage.json().at("ancestors");
    QCOMPARE(from.size(), std::size_t(1));
    QCOMPARE(from[0].at("parent").get<std::string>(), root.string());
    QCOMPARE(from[0].at("epoch").get<int>(), 2);
    QCOMPARE(from[0].at("changes")[0].at("to").get<std::string>(), std::string("0.003"));
    const test::CliResult text =
        test::runCli({QStringLiteral("lineage"), QString::fromStdString(root.string())});
    QVERIFY2(text.out.contains("epoch 2 -> fork " + QByteArray::fromStdString(fork)) &&
                 text.out.contains("learning_rate 0.01 -> 0.003"),
             text.out.constData());

    // A prune of the parent keeps the forked-from epoch and says why.
    const test::CliResult prune = test::runCli(
        {QStringLiteral("prune"), QString::fromStdString(root.string()),
         QStringLiteral("--keep-limit"), QStringLiteral("0"), QStringLiteral("--json")});
    QVERIFY2(prune.out.contains("forked into " + QByteArray::fromStdString(fork)),
             prune.out.constData());
    QVERIFY(fs::exists(root / "epochs/002"));
}

void tst_LaunchPrep::cliSweepForksOncePerValue()
{
    auto values = ParamEdit::parseSweep("dense=[64, 32],(1,2),'a,b',7");
    QVERIFY(values);
    QCOMPARE(values->size(), std::size_t(4));
    QCOMPARE(values->at(0).value.pythonLiteral(), std::string("[64, 32]"));
    QVERIFY(!ParamEdit::parseSweep("lr=0.1,,0.2"));

    const fs::path root = trainParent(5);
    const auto before = snapshot(m_base / "RUN000");
    const test::CliResult r = test::runCli(
        {QStringLiteral("launch"), QString::fromStdString(root.string()), QStringLiteral("--from"),
         QStringLiteral("3"), QStringLiteral("--sweep"),
         QStringLiteral("learning_rate=0.001,0.003,0.005"), QStringLiteral("--parallel"),
         QStringLiteral("2"), QStringLiteral("--config"), QString::fromStdString(m_config),
         QStringLiteral("--json"), QStringLiteral("--"), QStringLiteral(CKPT_DEMO_TRAIN),
         QStringLiteral("--config_file"), QStringLiteral("{config}"),
         QStringLiteral("--output_dir"), QStringLiteral("{output_dir}"),
         QStringLiteral("--ckpt_restart_mode"), QStringLiteral("{ckpt_restart_mode}")},
        180000);
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const auto runs = r.json().at("runs");
    QCOMPARE(runs.size(), std::size_t(3));
    // The ckpt processes keep their registry under XDG_DATA_HOME (init()).
    const LaunchRegistry registry((m_base / "xdg/ckpt-studio/launched-runs.json").string());
    for (const char* v : {"0.001", "0.003", "0.005"}) {
        const fs::path fork = m_base / ("RUN000-fork-e003-learning_rate-" + std::string(v));
        QVERIFY2(fs::exists(fork / "ckpts/epochs/005/ckpt-info.json"), fork.c_str());
        const auto record = LaunchRecord::load(LaunchRecord::pathFor(fork / "ckpts"));
        QVERIFY(record && !record->attempts.empty());
        const std::optional<LaunchParent>& parent = record->attempts.back().plan.parent;
        QVERIFY(parent.has_value());
        QCOMPARE(parent.value().epoch, 3);
        QCOMPARE(parent.value().changes.at(0).to, std::string(v));
    }
    for (const auto& run : runs)
        QCOMPARE(run.at("state").get<std::string>(), std::string("completed"));
    // Never more than two at once: the third started after one of the first two ended.
    const QByteArray err = r.err;
    const auto third =
        err.indexOf("started " + QByteArray::fromStdString(
                                     (m_base / "RUN000-fork-e003-learning_rate-0.005").string()));
    const auto firstEnd = err.indexOf(": completed");
    QVERIFY2(third > 0 && firstEnd > 0 && firstEnd < third, err.constData());
    QVERIFY(snapshot(m_base / "RUN000") == before);
    const auto pins = Lineage::forkPins(root.string(), registry);
    QVERIFY(pins.count(3));
    QCOMPARE(pins.at(3).size(), std::size_t(3));
}

QTEST_GUILESS_MAIN(tst_LaunchPrep)
#include "tst_LaunchPrep.moc"
