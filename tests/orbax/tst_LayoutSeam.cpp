// Every layer that works on runs, driven against every layout (CANDLE, Orbax
// and Lightning): the layers ask the layout, never its name.
#include "checksum/Verifier.h"
#include "layout/Layout.h"
#include "models/EpochTableModel.h"
#include "ops/Pruner.h"
#include "ops/Relinker.h"
#include "report/RunJson.h"
#include "scan/Scanner.h"
#include "watch/RunWatcher.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <CandleFixture.h>
#include <LightningFixture.h>
#include <OrbaxFixture.h>
#include <filesystem>

using namespace ckpt;
using test::CandleFixture;
using test::LightningFixture;
using test::OrbaxFixture;
namespace fs = std::filesystem;

namespace {

// Epoch (CANDLE) or step (Orbax) numbers of the runs the tests build.
std::vector<int> numbers(const std::string& layout)
{
    if (layout == "lightning") // numbered by step (epoch=E-step=S.ckpt)
        return {10, 20, 30, 40};
    return layout == "orbax" ? std::vector<int>{100, 200, 300, 400} : std::vector<int>{1, 2, 3, 4};
}

// A run of four saved epochs with a falling loss.
fs::path makeRun(const std::string& layout, const fs::path& root)
{
    const auto ns = numbers(layout);
    if (layout == "lightning") {
        LightningFixture f(root);
        std::string csv = "epoch,step,loss\n";
        for (std::size_t i = 0; i < ns.size(); ++i) {
            f.addCheckpoint(int(i), ns[i]);
            // Logged at step S-1, the checkpoint saved as step=S (CSVLogger).
            csv += std::to_string(i) + "," + std::to_string(ns[i] - 1) + "," +
                   std::to_string(1.0 / double(i + 1)) + "\n";
        }
        f.writeMetrics(csv);
        f.linkLast(LightningFixture::ckptName(int(ns.size()) - 1, ns.back()));
        return f.root();
    }
    if (layout == "orbax") {
        OrbaxFixture f(root, "checkpoint_");
        for (std::size_t i = 0; i < ns.size(); ++i)
            f.addStep(ns[i], {{"loss", 1.0 / double(i + 1)}}, 1763800000 + 60 * int(i));
        return f.root();
    }
    CandleFixture f(root);
    for (std::size_t i = 0; i < ns.size(); ++i)
        f.addEpoch(ns[i], 1.0 / double(i + 1), 64, i == 0);
    f.linkAbsolute("last", ns.back());
    f.linkAbsolute("best", ns.back());
    return f.root();
}

// A new epoch saved the way the format saves it: written aside, renamed in.
// `staging` is outside the watched folder.
void saveLive(const std::string& layout, const fs::path& root, int n, const fs::path& staging)
{
    if (layout == "lightning") {
        // torch.save writes in place; the test writes aside and renames for a single event.
        const fs::path aside = LightningFixture(staging).addCheckpoint(n / 10 - 1, n);
        fs::rename(aside, LightningFixture(root).checkpointsDir() / aside.filename());
        return;
    }
    if (layout == "orbax") {
        OrbaxFixture f(root, "checkpoint_");
        const fs::path tmp = root / ("checkpoint_" + std::to_string(n) + ".orbax-checkpoint-tmp");
        fs::create_directories(tmp / "default");
        CandleFixture::writeText(tmp / "_CHECKPOINT_METADATA",
                                 OrbaxFixture::metadataJson(n, {{"loss", 0.1}}, 1763900000));
        fs::rename(tmp, f.stepDir(n));
        return;
    }
    CandleFixture f(root);
    CandleFixture aside(staging);
    aside.addEpoch(n, 0.1);
    fs::rename(aside.epochDir(n), f.epochDir(n));
}

void bothLayouts()
{
    QTest::addColumn<QString>("layout");
    QTest::newRow("candle") << "candle";
    QTest::newRow("orbax") << "orbax";
    QTest::newRow("lightning") << "lightning";
}

} // namespace

class tst_LayoutSeam : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void mixedTreeScan()
    {
        QTemporaryDir tmp;
        const fs::path base(tmp.path().toStdString());
        makeRun("candle", base / "exp" / "a" / "ckpts");
        makeRun("orbax", base / "exp" / "b");
        OrbaxFixture(base / "exp" / "b").addTmp(500);
        makeRun("lightning", base / "exp" / "c" / "lightning_logs" / "version_0");
        auto result = Scanner::scan(base);
        QVERIFY(result.ok());
        QCOMPARE(result->runs.size(), std::size_t(3));
        std::map<std::string, const Run*> byLayout;
        for (const Run& r : result->runs)
            byLayout[r.layout] = &r;
        QVERIFY(byLayout.count("candle") && byLayout.count("orbax"));
        QCOMPARE(byLayout["orbax"]->epochs.size(), std::size_t(4));
        QCOMPARE(byLayout["orbax"]->inProgress.size(), std::size_t(1));
        QCOMPARE(byLayout["candle"]->epochs.size(), std::size_t(4));
        // JSON: "layout" for every run, the record as "info", metrics.
        const auto j = RunJson::toJson(*result);
        for (const auto& run : j["runs"]) {
            QVERIFY(run["layout"].is_string());
            QVERIFY(run["epochs"][0]["info"].is_object());
        }
        const auto orbax = RunJson::toJson(*byLayout["orbax"]);
        QCOMPARE(orbax["layout"].get<std::string>(), std::string("orbax"));
        QCOMPARE(orbax["epochs"][1]["step"].get<int>(), 200);
        QCOMPARE(orbax["epochs"][1]["metrics"]["loss"].get<double>(), 0.5);
        QCOMPARE(orbax["in_progress"].size(), std::size_t(1));
        QVERIFY(!orbax.contains("last"));
        QVERIFY(byLayout.count("lightning"));
        QCOMPARE(byLayout["lightning"]->epochs.size(), std::size_t(4));
        const auto lightning = RunJson::toJson(*byLayout["lightning"]);
        QCOMPARE(lightning["last"].get<int>(), 40);
        QCOMPARE(lightning["epochs"][1]["step"].get<int>(), 20);
        const auto candle = RunJson::toJson(*byLayout["candle"]);
        QCOMPARE(candle["last"].get<int>(), 4);
    }

    void history_data() { bothLayouts(); }
    void history()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path root =
            makeRun(layout.toStdString(), fs::path(tmp.path().toStdString()) / "r");
        const Run run = findLayout(layout.toStdString())->loadRun(root);
        const MetricHistory h = historyOf(run);
        const auto rows = h.latestPerEpoch();
        QCOMPARE(rows.size(), std::size_t(4));
        const std::string metric = layout != "candle" ? "loss" : std::string(kBestSoFar);
        QCOMPARE(rows[1]->epoch, numbers(layout.toStdString())[1]);
        QCOMPARE(rows[1]->value(metric), std::optional<double>(0.5));
        QVERIFY(rows[1]->wallTime.has_value());
    }

    void verify_data() { bothLayouts(); }
    void verify()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path root =
            makeRun(layout.toStdString(), fs::path(tmp.path().toStdString()) / "r");
        const Run run = findLayout(layout.toStdString())->loadRun(root);
        Verifier::Options o;
        o.threads = 2;
        auto report = Verifier::verifyRun(run, o);
        QVERIFY(report.ok());
        QCOMPARE(report->runs[0].epochs.size(), std::size_t(4));
        const VerifyStatus want = layout != "candle" ? VerifyStatus::NoChecksum : VerifyStatus::Ok;
        for (const auto& v : report->runs[0].epochs) {
            QCOMPARE(int(v.status), int(want));
            if (layout != "candle")
                QVERIFY(QString::fromStdString(v.message).contains("no checksum"));
        }
    }

    void relink_data() { bothLayouts(); }
    void relink()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path root =
            makeRun(layout.toStdString(), fs::path(tmp.path().toStdString()) / "r");
        const int target = numbers(layout.toStdString())[1];
        RelinkOptions options;
        options.actor = "tester@host";
        auto out = Relinker::relink(root, "last", target, options);
        if (layout != "candle") {
            QVERIFY(!out.ok());
            QVERIFY2(QString::fromStdString(out.error().message)
                         .contains(layout + " runs have no movable links"),
                     out.error().message.c_str());
            QVERIFY(!fs::exists(root / "last"));
            return;
        }
        QVERIFY2(out.ok(), out ? "" : out.error().message.c_str());
        QCOMPARE(out->epoch, std::optional<int>(target));
        QCOMPARE(fs::read_symlink(root / "last").string(), std::string("epochs/002"));
    }

    void prune_data() { bothLayouts(); }
    void prune()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path root =
            makeRun(layout.toStdString(), fs::path(tmp.path().toStdString()) / "r");
        const auto ns = numbers(layout.toStdString());
        const Run run = findLayout(layout.toStdString())->loadRun(root);
        KeepPolicy policy;
        policy.keepLimit = 1;
        const PrunePlan plan = Pruner::plan(run, policy);
        if (layout == "lightning") {
            // Lightning's own save_top_k deletes files; Ckpt Studio does not.
            QVERIFY(plan.toDelete.empty());
            QVERIFY(!plan.notes.empty());
            QVERIFY(!Pruner::execute(run, plan, Progress::none(), "tester@host").ok() ||
                    plan.toDelete.empty());
            QCOMPARE(findLayout("lightning")->loadRun(root).epochs.size(), std::size_t(4));
            return;
        }
        // The newest is kept (and, in CANDLE, last/best on it); the rest go.
        QCOMPARE(plan.toDelete.size(), std::size_t(3));
        QCOMPARE(plan.kept.size(), std::size_t(1));
        QCOMPARE(plan.kept[0].epoch, ns.back());
        QCOMPARE(plan.kept[0].reasons.front(), std::string(kKeepNewest));
        // Planning changed nothing.
        for (int n : ns)
            QVERIFY(fs::exists(run.pathOf(*run.findEpoch(n))));
        auto done = Pruner::execute(run, plan, Progress::none(), "tester@host");
        QVERIFY2(done.ok(), done ? "" : done.error().message.c_str());
        QCOMPARE(done->deleted, (std::vector<int>{ns[0], ns[1], ns[2]}));
        for (std::size_t i = 0; i + 1 < ns.size(); ++i)
            QVERIFY(!fs::exists(run.pathOf(*run.findEpoch(ns[i]))));
        QVERIFY(fs::exists(run.pathOf(*run.findEpoch(ns.back()))));
        QVERIFY(fs::exists(done->auditLog));
        const Run after = findLayout(layout.toStdString())->loadRun(root);
        QCOMPARE(after.epochs.size(), std::size_t(1));
    }

    void tableModel_data() { bothLayouts(); }
    void tableModel()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path root =
            makeRun(layout.toStdString(), fs::path(tmp.path().toStdString()) / "r");
        const Run run = findLayout(layout.toStdString())->loadRun(root);
        EpochTableModel model;
        QAbstractItemModelTester tester(&model);
        model.setRuns({&run}, {QStringLiteral("r")});
        model.setHistory(QString::fromStdString(run.root), historyOf(run));
        QCOMPARE(model.rowCount(), 4);
        using K = EpochTableModel::ColumnKind;
        QCOMPARE(model.index(1, model.columnOf(K::Epoch)).data().toInt(),
                 numbers(layout.toStdString())[1]);
        QVERIFY(!model.index(1, model.columnOf(K::SavedAt)).data().toString().isEmpty());
        if (layout == "lightning") {
            QVERIFY(model.metricNames().contains(QStringLiteral("loss")));
            QCOMPARE(model.index(3, model.columnOf(K::Links)).data().toString(), QString("last"));
        } else if (layout == "orbax") {
            QVERIFY(model.metricNames().contains(QStringLiteral("loss")));
            QCOMPARE(model.index(2, model.columnOf(K::Links)).data().toString(), QString());
        } else {
            QCOMPARE(model.index(3, model.columnOf(K::Links)).data().toString(),
                     QString("last best"));
        }
    }

    void watchNewEpoch_data() { bothLayouts(); }
    void watchNewEpoch()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path drop(tmp.path().toStdString());
        const fs::path root = makeRun(layout.toStdString(), drop / "exp" / "r");
        RunWatcher::Options o;
        o.debounceMs = 50;
        o.rescanIntervalMs = 0;
        RunWatcher watcher(o);
        QSignalSpy found(&watcher, &RunWatcher::runAdded);
        watcher.addFolder(QString::fromStdString(drop.string()));
        QCOMPARE(watcher.runs().size(), std::size_t(1));
        QCOMPARE(watcher.runs()[0].layout, layout.toStdString());
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        QSignalSpy live(&watcher, &RunWatcher::saveInProgress);
        const int n = numbers(layout.toStdString()).back() + 100;
        if (layout == "orbax") {
            // A save in progress first: shown as such, never as an epoch.
            const fs::path tmpDir = OrbaxFixture(root, "checkpoint_").addTmp(n, false);
            QTRY_COMPARE_WITH_TIMEOUT(live.count(), 1, 1000);
            QCOMPARE(live.at(0).at(1).toBool(), true);
            QCOMPARE(added.count(), 0);
            fs::remove_all(tmpDir);
            QTRY_COMPARE_WITH_TIMEOUT(live.count(), 2, 1000);
        }
        QTemporaryDir staging;
        saveLive(layout.toStdString(), root, n, fs::path(staging.path().toStdString()));
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, 1000);
        const Epoch e = added.at(0).at(1).value<Epoch>();
        QCOMPARE(e.number, n);
        QVERIFY(e.hasRecord());
        QTest::qWait(200);
        QCOMPARE(added.count(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_LayoutSeam)
#include "tst_LayoutSeam.moc"
