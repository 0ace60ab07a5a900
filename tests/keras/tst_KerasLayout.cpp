// Keras / Synalinks ModelCheckpoint runs: the template recovered from the names,
// epochs and metrics, save_best_only, half-written files, mixed trees, the watcher.
#include "KerasFixture.h"
#include "keras/KerasFileCheck.h"
#include "keras/KerasLayout.h"
#include "keras/KerasTemplate.h"
#include "layout/Layout.h"
#include "scan/Scanner.h"
#include "watch/RunWatcher.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <CandleFixture.h>
#include <OrbaxFixture.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

using namespace ckpt;
using test::KerasFixture;
namespace fs = std::filesystem;

namespace {

using Names = std::vector<std::string>;

const KerasLayout& kerasLayout()
{
    return KerasLayout::keras();
}

bool hasProblem(const Problems& problems, ProblemKind kind, const std::string& text = {})
{
    for (const Problem& p : problems)
        if (p.kind == kind && p.message.find(text) != std::string::npos)
            return true;
    return false;
}

// A run of `names` (real HDF5 for .h5, .keras zips, variables JSON).
fs::path makeFiles(const fs::path& dir, const Names& names)
{
    int seed = 1;
    for (const std::string& n : names) {
        const fs::path f = dir / n;
        fs::create_directories(dir);
        if (n.ends_with(".keras"))
            KerasFixture::keras(f, seed);
        else if (n.ends_with(".variables.json"))
            KerasFixture::variables(f, 0.1 * seed);
        else if (n.ends_with(".json"))
            KerasFixture::program(f);
        else
            KerasFixture::h5(f, seed, n.ends_with(".weights.h5"));
        ++seed;
    }
    return dir;
}

} // namespace

class tst_KerasLayout : public QObject
{
    Q_OBJECT

private slots:
    // Found by fuzz_keras_template: a 0x01 byte in names (the old group-key
    // separator) put a two-number and a one-number name in one group and
    // templateOf read past the shorter one's numbers (heap overflow under ASan).
    void separatorBytesInNames()
    {
        using namespace std::string_literals;
        const Names list{"01-on1prog m_e\x01.variles.json"s, "1-on\x01prog m_e\x01.variles.json"s};
        for (auto flavor : {KerasFlavor::Synalinks, KerasFlavor::Keras})
            QVERIFY(KerasTemplates::recover(list, flavor).empty());
    }

    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void templates_data()
    {
        QTest::addColumn<QString>("flavor");
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<QString>("text"); // empty: no run
        QTest::addColumn<QList<int>>("epochs");
        QTest::addColumn<QString>("metric");
        QTest::addColumn<double>("second"); // the metric of the second file

        QTest::newRow("epoch and val_loss")
            << "keras"
            << QStringList{"weights.01-0.52.h5", "weights.02-0.31.h5", "weights.03-0.25.h5"}
            << "weights.{epoch:02d}-{val_loss:.2f}.h5" << QList<int>{1, 2, 3} << "val_loss" << 0.31;
        QTest::newRow("epoch only, .keras")
            << "keras" << QStringList{"model-002.keras", "model-001.keras"}
            << "model-{epoch:03d}.keras" << QList<int>{1, 2} << "" << 0.0;
        QTest::newRow("negative metric")
            << "keras" << QStringList{"w.01--0.12.weights.h5", "w.02-0.05.weights.h5"}
            << "w.{epoch:02d}-{val_loss:.2f}.weights.h5" << QList<int>{1, 2} << "val_loss" << 0.05;
        QTest::newRow("named metrics")
            << "keras"
            << QStringList{"ckpt_epoch=1-val_acc=0.5000.keras", "ckpt_epoch=2-val_acc=0.7500.keras"}
            << "ckpt_epoch={epoch}-val_acc={val_acc:.4f}.keras" << QList<int>{1, 2} << "val_acc"
            << 0.75;
        QTest::newRow("constant number is text")
            << "keras" << QStringList{"resnet50-01.h5", "resnet50-02.h5", "resnet50-03.h5"}
            << "resnet50-{epoch:02d}.h5" << QList<int>{1, 2, 3} << "" << 0.0;
        QTest::newRow("constant float is text")
            << "keras" << QStringList{"lr0.001-01.h5", "lr0.001-02.h5"} << "lr0.001-{epoch:02d}.h5"
            << QList<int>{1, 2} << "" << 0.0;
        QTest::newRow("nan metric")
            << "keras" << QStringList{"m-01-nan.h5", "m-02-0.40.h5"}
            << "m-{epoch:02d}-{val_loss:.2f}.h5" << QList<int>{1, 2} << "val_loss" << 0.40;
        QTest::newRow("synalinks variables")
            << "synalinks" << QStringList{"01-0.60.variables.json", "02-0.70.variables.json"}
            << "{epoch:02d}-{val_reward:.2f}.variables.json" << QList<int>{1, 2} << "val_reward"
            << 0.70;
        QTest::newRow("synalinks programs")
            << "synalinks" << QStringList{"program_01.json", "program_02.json"}
            << "program_{epoch:02d}.json" << QList<int>{1, 2} << "" << 0.0;
        QTest::newRow("two unnamed metrics")
            << "keras" << QStringList{"m.01-0.90-0.80.h5", "m.02-0.70-0.60.h5"}
            << "m.{epoch:02d}-{metric1:.2f}-{metric2:.2f}.h5" << QList<int>{1, 2} << "" << 0.0;
        QTest::newRow("random h5 files")
            << "keras" << QStringList{"resnet.h5", "vgg.h5", "notes.txt"} << "" << QList<int>{}
            << "" << 0.0;
        QTest::newRow("one number that never varies")
            << "keras" << QStringList{"model-v2.h5", "data-v2.h5"} << "" << QList<int>{} << ""
            << 0.0;
        QTest::newRow("random json files")
            << "synalinks" << QStringList{"config_1.json", "config_2.json", "config_3.json"} << ""
            << QList<int>{} << "" << 0.0;
        QTest::newRow("lone model file")
            << "keras" << QStringList{"model.h5"} << "" << QList<int>{} << "" << 0.0;
        QTest::newRow("CANDLE's record is no program")
            << "synalinks" << QStringList{"ckpt-info.json", "model.h5"} << "" << QList<int>{} << ""
            << 0.0;
        QTest::newRow("save_best_only program")
            << "synalinks" << QStringList{"checkpoint.program.json"} << "checkpoint.program.json"
            << QList<int>{1} << "" << 0.0;
        QTest::newRow("save_best_only") << "keras" << QStringList{"best_model.keras", "train.log"}
                                        << "best_model.keras" << QList<int>{1} << "" << 0.0;
    }
    void templates()
    {
        QFETCH(QString, flavor);
        QFETCH(QStringList, names);
        QFETCH(QString, text);
        QFETCH(QList<int>, epochs);
        QFETCH(QString, metric);
        QFETCH(double, second);
        Names list;
        for (const QString& n : names)
            list.push_back(n.toStdString());
        const auto found = KerasTemplates::recover(
            list, flavor == "keras" ? KerasFlavor::Keras : KerasFlavor::Synalinks);
        if (text.isEmpty()) {
            QVERIFY2(found.empty(), found.empty() ? "" : found.front().text.c_str());
            return;
        }
        QCOMPARE(found.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(found[0].text), text);
        QCOMPARE(found[0].files.size(), std::size_t(epochs.size()));
        for (int i = 0; i < epochs.size(); ++i)
            QCOMPARE(found[0].files[std::size_t(i)].epoch, epochs[i]);
        if (!metric.isEmpty()) {
            const auto& m = found[0].files[1].metrics;
            QCOMPARE(m.size(), std::size_t(1));
            QCOMPARE(QString::fromStdString(m[0].first), metric);
            QCOMPARE(m[0].second, second);
        }
    }

    void epochsMetricsAndHistory()
    {
        QTemporaryDir tmp;
        const fs::path root =
            makeFiles(fs::path(tmp.path().toStdString()) / "run",
                      {"weights.01-0.52.h5", "weights.02-0.31.h5", "weights.03-0.25.h5"});
        KerasFixture::write(root / "notes.txt", "not a checkpoint");
        QVERIFY(layoutAt(root) == &kerasLayout());
        const Run run = kerasLayout().loadRun(root);
        QCOMPARE(run.layout, std::string("keras"));
        QVERIFY(run.allProblems().empty());
        QCOMPARE(run.epochs.size(), std::size_t(3));
        const Epoch& e = run.epochs[1];
        QCOMPARE(e.number, 2);
        QCOMPARE(e.dir, std::string());
        QVERIFY(e.hasRecord());
        QCOMPARE(e.files.size(), std::size_t(1));
        QCOMPARE(e.files[0].name, std::string("weights.02-0.31.h5"));
        QVERIFY(e.files[0].model && e.files[0].present && e.files[0].bytes > 0);
        QCOMPARE(run.modelPath(e), (root / "weights.02-0.31.h5").string());
        QCOMPARE(e.metric("val_loss"), std::optional<double>(0.31));
        QVERIFY(!e.savedAt.empty());
        QCOMPARE(e.metadata.text("template"),
                 std::optional<std::string>("weights.{epoch:02d}-{val_loss:.2f}.h5"));
        QVERIFY(run.findEpoch(3) && !run.findEpoch(4));
        const MetricHistory history = historyOf(run); // rows point into it
        const auto rows = history.latestPerEpoch();
        QCOMPARE(rows.size(), std::size_t(3));
        QCOMPARE(rows[2]->epoch, 3);
        QCOMPARE(rows[2]->value("val_loss"), std::optional<double>(0.25));
        // One file re-read alone.
        const auto again = kerasLayout().loadEpoch(run, 2);
        QVERIFY(again && again->hasRecord());
        QCOMPARE(again->files[0].name, e.files[0].name);
    }

    void epochAndBatchNumbering()
    {
        QTemporaryDir tmp;
        const fs::path root = makeFiles(
            fs::path(tmp.path().toStdString()) / "run",
            {"ckpt-02-0100.weights.h5", "ckpt-01-0200.weights.h5", "ckpt-01-0100.weights.h5"});
        const Run run = kerasLayout().loadRun(root);
        QCOMPARE(run.epochs.size(), std::size_t(3));
        // Sorted by (epoch, batch), numbered 1..3; the batch as the step.
        const std::vector<std::string> order{"ckpt-01-0100.weights.h5", "ckpt-01-0200.weights.h5",
                                             "ckpt-02-0100.weights.h5"};
        const std::vector<std::int64_t> steps{100, 200, 100};
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(run.epochs[i].number, int(i) + 1);
            QCOMPARE(run.epochs[i].files[0].name, order[i]);
            QCOMPARE(run.epochs[i].step, std::optional<std::int64_t>(steps[i]));
        }
        QCOMPARE(run.epochs[2].metadata.get("epoch"), std::optional<std::string_view>("2"));
        QCOMPARE(run.epochs[2].metadata.text("template"),
                 std::optional<std::string>("ckpt-{epoch:02d}-{batch:04d}.weights.h5"));
        const auto e = kerasLayout().loadEpoch(run, 3);
        QVERIFY(e);
        QCOMPARE(e->files[0].name, order[2]);
    }

    void saveBestOnly()
    {
        QTemporaryDir tmp;
        const fs::path root =
            makeFiles(fs::path(tmp.path().toStdString()) / "best", {"best_model.keras"});
        QVERIFY(layoutAt(root) == &kerasLayout());
        const Run run = kerasLayout().loadRun(root);
        QCOMPARE(run.epochs.size(), std::size_t(1));
        QCOMPARE(run.epochs[0].number, 1);
        QVERIFY(run.epochs[0].hasRecord());
        QCOMPARE(run.epochs[0].metadata.get("save_best_only"),
                 std::optional<std::string_view>("true"));
        // Overwritten in place: a reload that carries over sees one rewrite.
        Run before = run;
        QTest::qWait(20);
        KerasFixture::keras(root / "best_model.keras", 7);
        Run after = kerasLayout().loadRun(root);
        kerasLayout().carryOver(before.epochs[0], after.epochs[0]);
        const auto rewrites = after.epochs[0].metadata.get("rewrites");
        QVERIFY(rewrites);
        QVERIFY2(rewrites->find(before.epochs[0].savedAt) != std::string_view::npos,
                 std::string(*rewrites).c_str());
    }

    void halfWrittenFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("how");
        QTest::addColumn<QString>("says");
        QTest::newRow("truncated h5") << "weights.02.h5"
                                      << "cut"
                                      << "truncated";
        QTest::newRow("h5 being written") << "weights.02.h5"
                                          << "grow"
                                          << "not closed";
        QTest::newRow("empty h5") << "weights.02.h5"
                                  << "empty"
                                  << "empty";
        QTest::newRow("keras without central directory") << "model-02.keras"
                                                         << "cut"
                                                         << "central directory";
        QTest::newRow("variables json cut") << "02.variables.json"
                                            << "cut"
                                            << "JSON";
    }
    void halfWrittenFiles()
    {
        QFETCH(QString, file);
        QFETCH(QString, how);
        QFETCH(QString, says);
        QTemporaryDir tmp;
        const std::string name = file.toStdString();
        const std::string first = name.ends_with(".keras")  ? "model-01.keras"
                                  : name.ends_with(".json") ? "01.variables.json"
                                                            : "weights.01.h5";
        const fs::path root = makeFiles(fs::path(tmp.path().toStdString()) / "run", {first, name});
        const fs::path f = root / name;
        if (how == "cut")
            KerasFixture::truncate(f, fs::file_size(f) / 2);
        else if (how == "grow")
            KerasFixture::write(f, KerasFixture::read(f) + std::string(4096, '\0'));
        else
            KerasFixture::truncate(f, 0);
        const Layout& layout = name.ends_with(".json")
                                   ? static_cast<const Layout&>(KerasLayout::synalinks())
                                   : kerasLayout();
        const Run run = layout.loadRun(root);
        QCOMPARE(run.epochs.size(), std::size_t(2));
        QVERIFY(run.epochs[0].hasRecord());
        QVERIFY(run.epochs[0].problems.empty());
        const Epoch& half = run.epochs[1];
        QVERIFY(!half.hasRecord());
        QVERIFY2(hasProblem(half.problems, ProblemKind::InterruptedSave, says.toStdString()),
                 half.problems.empty() ? "none" : half.problems[0].message.c_str());
        QCOMPARE(half.problems[0].path, f.string());
        QCOMPARE(half.problems[0].epoch, std::optional<int>(2));
    }

    void superblockEndOfFile()
    {
        QTemporaryDir tmp;
        const fs::path f = fs::path(tmp.path().toStdString()) / "m.h5";
        KerasFixture::h5(f);
        const auto eof = KerasFileCheck::hdf5EndOfFile(KerasFixture::read(f).substr(0, 96));
        QCOMPARE(eof, std::optional<std::uint64_t>(fs::file_size(f)));
        QVERIFY(!KerasFileCheck::hdf5EndOfFile("\x89HDF\r\n\x1a\n\x09garbage-garbage"));
        QVERIFY(!KerasFileCheck::hdf5EndOfFile(""));
    }

    void twoTemplatesInOneFolder()
    {
        QTemporaryDir tmp;
        const fs::path root = makeFiles(fs::path(tmp.path().toStdString()) / "run",
                                        {"model-01.keras", "model-02.keras", "model-03.keras",
                                         "weights.01-0.50.h5", "weights.02-0.40.h5"});
        const Run run = kerasLayout().loadRun(root);
        QCOMPARE(run.epochs.size(), std::size_t(3));
        QCOMPARE(run.epochs[0].files[0].name, std::string("model-01.keras"));
        QVERIFY(hasProblem(run.problems, ProblemKind::EpochMismatch,
                           "weights.{epoch:02d}-{val_loss:.2f}.h5"));
    }

    void epochFileDeletedWhileLoaded()
    {
        QTemporaryDir tmp;
        const fs::path root = makeFiles(fs::path(tmp.path().toStdString()) / "run",
                                        {"m-01.h5", "m-02.h5", "m-03.h5"});
        const Run run = kerasLayout().loadRun(root);
        fs::remove(root / "m-02.h5");
        QVERIFY(!kerasLayout().loadEpoch(run, 2));
        const Run again = kerasLayout().reloadRun(run);
        QCOMPARE(again.epochs.size(), std::size_t(2));
        QVERIFY(!again.findEpoch(2));
        // Kept without re-reading: same identity as before.
        QCOMPARE(again.findEpoch(3)->files[0].inode, run.findEpoch(3)->files[0].inode);
    }

    void mixedTree()
    {
        QTemporaryDir tmp;
        const fs::path base(tmp.path().toStdString());
        test::CandleFixture candle(base / "a" / "ckpts");
        candle.addEpoch(1, 0.5, 64, true);
        candle.addEpoch(2, 0.25);
        test::OrbaxFixture orbax(base / "b", "checkpoint_");
        orbax.addStep(10, {{"loss", 0.5}});
        orbax.addStep(20, {{"loss", 0.4}});
        makeFiles(base / "c" / "keras", {"weights.01-0.50.h5", "weights.02-0.40.h5"});
        makeFiles(base / "d" / "synalinks", {"01.variables.json", "02.variables.json"});
        makeFiles(base / "e" / "random", {"resnet.h5", "vgg.h5"});
        // Keras-looking files inside a CANDLE run's epoch are CANDLE's.
        makeFiles(candle.epochDir(2), {"extra-01.h5", "extra-02.h5"});
        auto result = Scanner::scan(base);
        QVERIFY(result.ok());
        std::map<std::string, std::string> layouts;
        for (const Run& r : result->runs)
            layouts[fs::relative(r.root, base).string()] = r.layout;
        const std::map<std::string, std::string> want{{"a/ckpts", "candle"},
                                                      {"b", "orbax"},
                                                      {"c/keras", "keras"},
                                                      {"d/synalinks", "synalinks"}};
        QCOMPARE(layouts, want);
    }

    void watchNewFiles()
    {
        QTemporaryDir tmp;
        const fs::path drop(tmp.path().toStdString());
        const fs::path root = makeFiles(drop / "exp", {"weights.01-0.50.h5", "weights.02-0.40.h5"});
        QTemporaryDir staging;
        const fs::path aside = fs::path(staging.path().toStdString()) / "w.h5";
        KerasFixture::h5(aside, 9);
        const std::string bytes = KerasFixture::read(aside);

        RunWatcher::Options o;
        o.debounceMs = 50;
        o.rescanIntervalMs = 0;
        RunWatcher watcher(o);
        watcher.addFolder(QString::fromStdString(drop.string()));
        QCOMPARE(watcher.runs().size(), std::size_t(1));
        QCOMPARE(watcher.runs()[0].layout, std::string("keras"));
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        QSignalSpy changed(&watcher, &RunWatcher::epochChanged);
        QSignalSpy removed(&watcher, &RunWatcher::epochRemoved);

        // h5py writes in place: first a file that is not whole yet...
        const fs::path third = root / "weights.03-0.30.h5";
        {
            std::ofstream out(third, std::ios::binary);
            out.write(bytes.data(), std::streamsize(bytes.size() / 2));
        }
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, 1000);
        Epoch e = added.at(0).at(1).value<Epoch>();
        QCOMPARE(e.number, 3);
        QVERIFY(!e.hasRecord());
        QVERIFY(hasProblem(e.problems, ProblemKind::InterruptedSave));
        // ... then the rest: the same epoch, now whole.
        {
            std::ofstream out(third, std::ios::binary | std::ios::app);
            out.write(bytes.data() + bytes.size() / 2,
                      std::streamsize(bytes.size() - bytes.size() / 2));
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            !changed.isEmpty() && changed.last().at(1).value<Epoch>().hasRecord(), 1000);
        e = changed.last().at(1).value<Epoch>();
        QCOMPARE(e.number, 3);
        QVERIFY(e.problems.empty());
        QCOMPARE(e.metric("val_loss"), std::optional<double>(0.30));
        QCOMPARE(watcher.runs()[0].epochs.size(), std::size_t(3));

        // A file written whole in one go appears within a fraction of a second.
        KerasFixture::write(root / "weights.04-0.20.h5", bytes);
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 2, 500);
        QVERIFY(added.at(1).at(1).value<Epoch>().hasRecord());

        fs::remove(root / "weights.01-0.50.h5");
        QTRY_COMPARE_WITH_TIMEOUT(removed.count(), 1, 1000);
        QCOMPARE(removed.at(0).at(1).toInt(), 1);
    }

    void watchSaveBestOnlyRewrites()
    {
        QTemporaryDir tmp;
        const fs::path drop(tmp.path().toStdString());
        const fs::path root = makeFiles(drop / "best", {"best.weights.h5"});
        const fs::path file = root / "best.weights.h5";
        QTemporaryDir staging;
        const fs::path aside = fs::path(staging.path().toStdString()) / "w.h5";
        KerasFixture::h5(aside, 5, true);
        const std::string bytes = KerasFixture::read(aside);

        RunWatcher::Options o;
        o.debounceMs = 50;
        o.rescanIntervalMs = 0;
        RunWatcher watcher(o);
        watcher.addFolder(QString::fromStdString(drop.string()));
        QCOMPARE(watcher.runs().size(), std::size_t(1));
        QSignalSpy changed(&watcher, &RunWatcher::epochChanged);
        for (int rewrite = 1; rewrite <= 2; ++rewrite) {
            QTest::qWait(30); // a new mtime
            KerasFixture::write(file, bytes + std::string(std::size_t(rewrite), ' '));
            KerasFixture::truncate(file, bytes.size());
            QTRY_VERIFY_WITH_TIMEOUT(
                !changed.isEmpty() && changed.last().at(1).value<Epoch>().hasRecord() &&
                    changed.last().at(1).value<Epoch>().metadata.get("rewrites").has_value(),
                1000);
            const auto text = watcher.runs()[0].epochs[0].metadata.get("rewrites");
            QVERIFY(text);
            const auto entries = nlohmann::json::parse(*text);
            QCOMPARE(int(entries.size()), rewrite);
            changed.clear();
        }
    }
};

QTEST_GUILESS_MAIN(tst_KerasLayout)
#include "tst_KerasLayout.moc"
