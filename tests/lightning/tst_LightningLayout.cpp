#include "layout/DirReader.h"
#include "lightning/LightningHparams.h"
#include "lightning/LightningLayout.h"
#include "lightning/LightningMetricsCsv.h"
#include "lightning/LightningName.h"
#include "report/RunJson.h"
#include "scan/Scanner.h"
#include "watch/RunWatcher.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <CandleFixture.h>
#include <LightningFixture.h>
#include <TorchZipWriter.h>
#include <filesystem>
#include <fstream>

using namespace ckpt;
using test::CandleFixture;
using test::LightningFixture;
using test::TorchZipWriter;
namespace fs = std::filesystem;

namespace {

QString problemsText(const Problems& problems)
{
    QString out;
    for (const auto& p : problems)
        out += QString::fromStdString(std::string(toString(p.kind)) + ": " + p.message) + "\n";
    return out;
}

std::string readFile(const fs::path& p)
{
    std::string out(fs::file_size(p), '\0');
    std::ifstream(p, std::ios::binary).read(out.data(), static_cast<std::streamsize>(out.size()));
    return out;
}

const Layout& lightning()
{
    return LightningLayout::instance();
}

} // namespace

class tst_LightningLayout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("number"); // -1: not an epoch file
        QTest::addColumn<int>("epoch");
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("version");
        QTest::addColumn<QString>("metric"); // "name=value" or empty
        QTest::newRow("default") << "epoch=3-step=100.ckpt" << 100 << 3 << 100 << 0 << "";
        QTest::newRow("metric") << "epoch=2-val_loss=0.12.ckpt" << 2 << 2 << -1 << 0
                                << "val_loss=0.12";
        QTest::newRow("negative metric")
            << "epoch=4-score=-1.5.ckpt" << 4 << 4 << -1 << 0 << "score=-1.5";
        QTest::newRow("collision")
            << "epoch=2-val_loss=0.12-v1.ckpt" << 100000002 << 2 << -1 << 1 << "val_loss=0.12";
        QTest::newRow("prefix") << "model-epoch=7.ckpt" << 7 << 7 << -1 << 0 << "";
        QTest::newRow("step only") << "step=500.ckpt" << 500 << -1 << 500 << 0 << "";
        QTest::newRow("last") << "last.ckpt" << -1 << -1 << -1 << 0 << "";
        QTest::newRow("last-v1") << "last-v1.ckpt" << -1 << -1 << -1 << 0 << "";
        QTest::newRow("no name=value") << "2-0.12.ckpt" << -1 << -1 << -1 << 0 << "";
        QTest::newRow("other extension") << "epoch=3-step=100.pt" << -1 << -1 << -1 << 0 << "";
        QTest::newRow("hidden") << ".epoch=3.ckpt" << -1 << -1 << -1 << 0 << "";
        QTest::newRow("bad epoch") << "epoch=x-step=1.ckpt" << -1 << -1 << -1 << 0 << "";
        QTest::newRow("huge step") << "step=99999999999.ckpt" << -1 << -1 << -1 << 0 << "";
    }
    void names()
    {
        QFETCH(QString, name);
        QFETCH(int, number);
        QFETCH(int, epoch);
        QFETCH(int, step);
        QFETCH(int, version);
        QFETCH(QString, metric);
        QCOMPARE(lightning().epochNumberOf(name.toStdString()).value_or(-1), number);
        const auto parsed = LightningName::parse(name.toStdString());
        if (number == -1) {
            QVERIFY(!parsed || !parsed->number());
            return;
        }
        QVERIFY(parsed);
        QCOMPARE(parsed->epoch.value_or(-1), epoch);
        QCOMPARE(int(parsed->step.value_or(-1)), step);
        QCOMPARE(parsed->version, version);
        if (!metric.isEmpty()) {
            QCOMPARE(parsed->metrics.size(), std::size_t(1));
            const auto parts = metric.split('=');
            QCOMPARE(QString::fromStdString(parsed->metrics[0].first), parts[0]);
            QCOMPARE(parsed->metrics[0].second, parts[1].toDouble());
        }
    }

    void discoveryInMixedTree()
    {
        QTemporaryDir tmp;
        const fs::path base(tmp.path().toStdString());
        CandleFixture candle(base / "candle" / "ckpts");
        candle.addEpoch(1, 0.5, 64, true);
        candle.linkAbsolute("last", 1);
        for (int v = 0; v < 2; ++v) {
            LightningFixture f(base / "lt" / "lightning_logs" / ("version_" + std::to_string(v)));
            f.addCheckpoint(0, 10);
            f.addCheckpoint(1, 20);
        }
        // A version folder whose checkpoints/ is still empty: a run with no epochs yet.
        LightningFixture(base / "lt" / "lightning_logs" / "version_2");
        LightningFixture bare(base / "bare", false);
        bare.addNamed("epoch=0-val_loss=0.50.ckpt", 0, 5);
        auto result = Scanner::scan(base);
        QVERIFY(result.ok());
        std::map<std::string, const Run*> byRoot;
        for (const Run& r : result->runs)
            byRoot[fs::path(r.root).lexically_relative(base).string()] = &r;
        QCOMPARE(byRoot.size(), std::size_t(5));
        QCOMPARE(byRoot["candle/ckpts"]->layout, std::string("candle"));
        for (const char* v : {"lt/lightning_logs/version_0", "lt/lightning_logs/version_1"}) {
            QVERIFY2(byRoot.count(v), v);
            QCOMPARE(byRoot[v]->layout, std::string("lightning"));
            QCOMPARE(byRoot[v]->epochs.size(), std::size_t(2));
        }
        QCOMPARE(byRoot["lt/lightning_logs/version_2"]->epochs.size(), std::size_t(0));
        QCOMPARE(byRoot["bare"]->layout, std::string("lightning"));
        QCOMPARE(byRoot["bare"]->epochs.size(), std::size_t(1));
        QCOMPARE(byRoot["bare"]->epochs[0].dir, std::string("epoch=0-val_loss=0.50.ckpt"));
    }

    void epochsStepsMetrics()
    {
        QTemporaryDir tmp;
        LightningFixture f(fs::path(tmp.path().toStdString()) / "version_0");
        f.addCheckpoint(0, 50);
        f.addCheckpoint(0, 100); // every_n_train_steps: two saves in epoch 0
        f.addNamed("epoch=1-step=150-val_loss=0.25.ckpt", 1, 150);
        const Run run = lightning().loadRun(f.root());
        QVERIFY2(run.allProblems().empty(), qPrintable(problemsText(run.allProblems())));
        QCOMPARE(run.layout, std::string("lightning"));
        QCOMPARE(run.epochs.size(), std::size_t(3));
        QCOMPARE(run.epochs[0].number, 50);
        QCOMPARE(run.epochs[1].number, 100);
        QCOMPARE(run.epochs[2].number, 150);
        const Epoch& e = run.epochs[2];
        QCOMPARE(e.step, std::optional<std::int64_t>(150));
        QCOMPARE(e.metadata.number("epoch"), std::optional<double>(1));
        QCOMPARE(e.metric("val_loss"), std::optional<double>(0.25));
        QVERIFY(e.hasRecord());
        QVERIFY(e.hasModel());
        QCOMPARE(e.dir, std::string("checkpoints/epoch=1-step=150-val_loss=0.25.ckpt"));
        QCOMPARE(run.modelPath(e),
                 (f.checkpointsDir() / "epoch=1-step=150-val_loss=0.25.ckpt").string());
        QCOMPARE(*e.modelBytes(), std::uint64_t(fs::file_size(run.modelPath(e))));
        QVERIFY(!e.savedAt.empty());
        QCOMPARE(run.sourcePath("hparams"), (f.root() / "hparams.yaml").string());
        QCOMPARE(run.sourcePath("metrics_csv"), std::string());
        // loadEpoch re-reads one file alone.
        const auto again = lightning().loadEpoch(run, 100);
        QVERIFY(again);
        QCOMPARE(again->dir, run.epochs[1].dir);
        QVERIFY(!lightning().loadEpoch(run, 7));
    }

    void collisionBothShown()
    {
        QTemporaryDir tmp;
        LightningFixture f(fs::path(tmp.path().toStdString()) / "version_0");
        f.addNamed("epoch=2-val_loss=0.12.ckpt", 2, 30);
        f.addNamed("epoch=2-val_loss=0.12-v1.ckpt", 2, 60);
        const Run run = lightning().loadRun(f.root());
        QCOMPARE(run.epochs.size(), std::size_t(2));
        QCOMPARE(run.epochs[0].number, 2);
        QCOMPARE(run.epochs[1].number, 2 + LightningName::kVersionStride);
        QCOMPARE(run.epochs[1].metadata.number("version"), std::optional<double>(1));
        QCOMPARE(run.problems.size(), std::size_t(1));
        const Problem& p = run.problems[0];
        QCOMPARE(toString(p.kind), std::string_view("name_collision"));
        QVERIFY2(p.message.find("epoch=2-val_loss=0.12.ckpt") != std::string::npos,
                 p.message.c_str());
        QVERIFY2(p.message.find("epoch=2-val_loss=0.12-v1.ckpt") != std::string::npos,
                 p.message.c_str());
    }

    void lastLink_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("epoch"); // -1: resolves to none
        QTest::addColumn<bool>("symlink");
        QTest::addColumn<QString>("problem");
        QTest::newRow("relative symlink") << "symlink" << 200 << true << "";
        QTest::newRow("copy") << "copy" << -1 << false << "";
        QTest::newRow("dangling") << "dangling" << -1 << true << "dangling_link";
        QTest::newRow("to a deleted epoch") << "deleted" << -1 << true << "link_to_missing_epoch";
        QTest::newRow("outside the run") << "outside" << -1 << true << "link_outside_run";
    }
    void lastLink()
    {
        QFETCH(QString, kind);
        QFETCH(int, epoch);
        QFETCH(bool, symlink);
        QFETCH(QString, problem);
        QTemporaryDir tmp;
        LightningFixture f(fs::path(tmp.path().toStdString()) / "version_0");
        f.addCheckpoint(0, 100);
        f.addCheckpoint(1, 200);
        if (kind == "symlink")
            f.linkLast(LightningFixture::ckptName(1, 200));
        else if (kind == "copy")
            f.copyLast(LightningFixture::ckptName(1, 200));
        else if (kind == "dangling")
            f.linkLast("nowhere.ckpt");
        else if (kind == "deleted") {
            f.linkLast(LightningFixture::ckptName(1, 200));
            fs::remove(f.checkpointsDir() / LightningFixture::ckptName(1, 200));
        } else {
            LightningFixture other(f.root().parent_path() / "version_9");
            other.addCheckpoint(0, 100);
            f.linkLast("../../version_9/checkpoints/" + LightningFixture::ckptName(0, 100));
        }
        const Run run = lightning().loadRun(f.root());
        const RunLink* last = run.link("last");
        QVERIFY(last);
        QCOMPARE(last->symlink, symlink);
        QCOMPARE(last->epoch.value_or(-1), epoch);
        QCOMPARE(last->path, (f.checkpointsDir() / "last.ckpt").string());
        // last.ckpt is never an epoch of its own.
        QCOMPARE(run.epochs.size(), std::size_t(kind == "deleted" ? 1 : 2));
        const QString problems = problemsText(run.problems);
        if (problem.isEmpty()) {
            QVERIFY2(problems.isEmpty(), qPrintable(problems));
        } else {
            QVERIFY2(problems.startsWith(problem + ":"), qPrintable(problems));
            QCOMPARE(problems.count('\n'), 1);
            QVERIFY(problems.contains("last.ckpt"));
        }
    }

    void truncatedIsNotFinished()
    {
        QTemporaryDir tmp;
        LightningFixture f(fs::path(tmp.path().toStdString()) / "version_0");
        f.addCheckpoint(0, 10);
        const fs::path half = f.addCheckpoint(1, 20);
        const std::string all = readFile(half);
        std::ofstream(half, std::ios::binary | std::ios::trunc) << all.substr(0, all.size() / 2);
        const Run run = lightning().loadRun(f.root());
        QCOMPARE(run.epochs.size(), std::size_t(2));
        QVERIFY(run.epochs[0].hasRecord());
        const Epoch& e = run.epochs[1];
        QVERIFY(!e.hasRecord());
        QCOMPARE(e.problems.size(), std::size_t(1));
        QCOMPARE(toString(e.problems[0].kind), std::string_view("interrupted_save"));
        QVERIFY(e.problems[0].message.find(half.string()) != std::string::npos);
    }

    void historyFromMetricsCsv()
    {
        QTemporaryDir tmp;
        LightningFixture f(fs::path(tmp.path().toStdString()) / "version_0");
        f.addCheckpoint(0, 100);
        f.addCheckpoint(1, 200);
        f.writeMetrics("epoch,step,train_loss,val_loss\n"
                       "0,49,0.9,\n"
                       "0,99,0.8,\n"
                       "0,99,,0.7\n"
                       "1,149,0.6\n" // line 5: a cell short
                       "1,199,0.5,\n"
                       "1,199,,zero\n" // line 7: not a number
                       "1,199,,0.4\n");
        const Run run = lightning().loadRun(f.root());
        QCOMPARE(run.sourcePath("metrics_csv"), (f.root() / "metrics.csv").string());
        const MetricHistory h = historyOf(run);
        // Lightning logs epoch E's last training step, its validation and its
        // epoch-end metrics at step S-1 and saves the checkpoint as step=S: the
        // rows land on the checkpoint's own step.
        std::map<int, const HistoryRow*> byStep;
        for (const HistoryRow* r : h.latestPerEpoch())
            byStep[r->epoch] = r;
        QVERIFY(byStep.count(100) && byStep.count(200) && byStep.count(50));
        QVERIFY(!byStep.count(99) && !byStep.count(199));
        QCOMPARE(byStep[100]->value("train_loss"), std::optional<double>(0.8));
        QCOMPARE(byStep[100]->value("val_loss"), std::optional<double>(0.7));
        QCOMPARE(byStep[200]->value("val_loss"), std::optional<double>(0.4));
        QCOMPARE(byStep[50]->value("val_loss"), std::optional<double>());
        QVERIFY(!byStep.count(150));
        const QString problems = problemsText(h.problems);
        const QString csv = QString::fromStdString((f.root() / "metrics.csv").string());
        QVERIFY2(problems.contains(csv + ":5: expected 4 cells, found 3"), qPrintable(problems));
        QVERIFY2(problems.contains(csv + ":7: val_loss is not a number"), qPrintable(problems));
        QCOMPARE(h.problems.size(), std::size_t(2));
    }

    void historyByEpochWithoutSteps()
    {
        const HistoryFragment frag = LightningMetricsCsv::parse(
            "epoch,step,val_loss\n0,9,0.5\n1,19,0.25\n", "/x/metrics.csv", false);
        QCOMPARE(frag.samples.size(), std::size_t(2));
        QCOMPARE(frag.samples[1].epoch, 1);
        QCOMPARE(frag.samples[1].sample.value, 0.25);
        const HistoryFragment noKey =
            LightningMetricsCsv::parse("loss\n0.5\n", "/x/metrics.csv", true);
        QCOMPARE(noKey.problems.size(), std::size_t(1));
        QVERIFY(noKey.samples.empty());
    }

    void hparams()
    {
        const auto parsed = LightningHparams::parse("lr: 0.001\n"
                                                    "name: 'tiny net'\n"
                                                    "use_bn: true\n"
                                                    "dropout: null\n"
                                                    "optimizer:\n"
                                                    "  name: adam\n"
                                                    "  betas: [0.9, 0.99]\n"
                                                    "layers: [1, 2]\n"
                                                    "obj: !!python/object:foo.Bar {}\n"
                                                    "garbage line\n"
                                                    "batch_size: 32\n",
                                                    "/r/hparams.yaml");
        QCOMPARE(parsed.values.get("lr"), std::optional<std::string_view>("0.001"));
        QCOMPARE(parsed.values.text("name"), std::optional<std::string>("tiny net"));
        QCOMPARE(parsed.values.get("use_bn"), std::optional<std::string_view>("true"));
        QCOMPARE(parsed.values.get("dropout"), std::optional<std::string_view>("null"));
        QCOMPARE(parsed.values.number("batch_size"), std::optional<double>(32));
        QVERIFY(!parsed.values.contains("optimizer"));
        QVERIFY(!parsed.values.contains("layers"));
        QCOMPARE(parsed.notes.size(), std::size_t(4));
        QVERIFY(parsed.notes[0].starts_with("/r/hparams.yaml:5: optimizer"));
        QVERIFY(parsed.notes[3].starts_with("/r/hparams.yaml:10:"));
        QVERIFY(!LightningHparams::read("/nonexistent/hparams.yaml").ok());
    }

    // Found by fuzz_lightning_hparams: NUL bytes in keys (every later lookup
    // looped forever) and a first key with an empty value (UB in KeyValues).
    void hparamsWithNulBytes()
    {
        const std::string text{'\'', 0,   ':',  ' ', ':', '\n', 0,   ':', ':', ' ',
                               ':',  ':', '\n', 'k', 0,   ':',  ' ', '1', '\n'};
        const auto parsed = LightningHparams::parse(text + "lr: 0.1\n", "/r/hparams.yaml");
        QCOMPARE(parsed.values.size(), std::size_t(1));
        QCOMPARE(parsed.values.number("lr"), std::optional<double>(0.1));
        QCOMPARE(parsed.lineOf("lr"), 4);
        QCOMPARE(parsed.notes.size(), std::size_t(3));
        QVERIFY(parsed.notes[2].starts_with("/r/hparams.yaml:3: a NUL byte"));
    }

    void jsonSaysLightning()
    {
        QTemporaryDir tmp;
        LightningFixture f(fs::path(tmp.path().toStdString()) / "version_0");
        f.addCheckpoint(0, 100);
        f.linkLast(LightningFixture::ckptName(0, 100));
        const Run run = lightning().loadRun(f.root());
        const auto j = RunJson::toJson(run);
        QCOMPARE(j["layout"].get<std::string>(), std::string("lightning"));
        QCOMPARE(j["last"].get<int>(), 100);
        QCOMPARE(j["epochs"][0]["step"].get<int>(), 100);
    }

    void watchFollowsNewFiles_data()
    {
        QTest::addColumn<bool>("polling");
        QTest::newRow("inotify") << false;
        QTest::newRow("polling") << true;
    }
    void watchFollowsNewFiles()
    {
        QFETCH(bool, polling);
        QTemporaryDir tmp;
        const fs::path drop(tmp.path().toStdString());
        LightningFixture f(drop / "lightning_logs" / "version_0");
        f.addCheckpoint(0, 100);
        RunWatcher::Options o;
        o.debounceMs = 50;
        o.rescanIntervalMs = 0;
        o.polling = polling;
        o.pollIntervalMs = 100;
        RunWatcher watcher(o);
        watcher.addFolder(QString::fromStdString(drop.string()));
        QCOMPARE(watcher.runs().size(), std::size_t(1));
        QCOMPARE(watcher.runs()[0].layout, std::string("lightning"));
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        QSignalSpy changed(&watcher, &RunWatcher::epochChanged);
        QSignalSpy links(&watcher, &RunWatcher::linkChanged);

        // A finished file appears: an epoch within a fraction of a second.
        f.addCheckpoint(1, 200);
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, 1000);
        QCOMPARE(added.at(0).at(1).value<Epoch>().number, 200);
        QVERIFY(added.at(0).at(1).value<Epoch>().hasRecord());

        // torch.save writing in place: first half a zip (not finished), then the rest.
        const fs::path staging = drop / "staging.ckpt";
        TorchZipWriter::write(staging, TorchZipWriter::lightningCheckpoint(2, 300));
        const std::string all = readFile(staging);
        fs::remove(staging);
        const fs::path target = f.checkpointsDir() / LightningFixture::ckptName(2, 300);
        {
            std::ofstream out(target, std::ios::binary);
            out << all.substr(0, all.size() / 2);
        }
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 2, 1000);
        QVERIFY(!added.at(1).at(1).value<Epoch>().hasRecord());
        {
            std::ofstream out(target, std::ios::binary | std::ios::app);
            out << all.substr(all.size() / 2);
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            changed.count() >= 1 && changed.last().at(1).value<Epoch>().hasRecord(), 2000);
        QCOMPARE(changed.last().at(1).value<Epoch>().number, 300);

        // last.ckpt relinked to the new file.
        f.linkLast(LightningFixture::ckptName(2, 300));
        QTRY_VERIFY_WITH_TIMEOUT(
            watcher.run(QString::fromStdString(f.root().string()))->linkedEpoch("last") ==
                std::optional<int>(300),
            2000);
        // A file removed (save_top_k): the epoch goes.
        QSignalSpy removed(&watcher, &RunWatcher::epochRemoved);
        fs::remove(f.checkpointsDir() / LightningFixture::ckptName(0, 100));
        QTRY_COMPARE_WITH_TIMEOUT(removed.count(), 1, 1000);
        QCOMPARE(removed.at(0).at(1).toInt(), 100);
    }

    void watchBareFolderAndNewVersion()
    {
        QTemporaryDir tmp;
        const fs::path drop(tmp.path().toStdString());
        LightningFixture bare(drop / "bare", false);
        bare.addCheckpoint(0, 10);
        fs::create_directories(drop / "lightning_logs");
        RunWatcher::Options o;
        o.debounceMs = 50;
        o.rescanIntervalMs = 0;
        RunWatcher watcher(o);
        watcher.addFolder(QString::fromStdString(drop.string()));
        QCOMPARE(watcher.runs().size(), std::size_t(1));
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        QSignalSpy runs(&watcher, &RunWatcher::runAdded);
        bare.addCheckpoint(1, 20);
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, 1000);
        QCOMPARE(added.at(0).at(1).value<Epoch>().number, 20);
        // A new training run: lightning_logs/version_0 appears with its first file.
        LightningFixture v(drop / "lightning_logs" / "version_0");
        v.addCheckpoint(0, 5);
        QTRY_VERIFY_WITH_TIMEOUT(
            watcher.runs().size() == 2 && watcher.run(QString::fromStdString(v.root().string())) &&
                watcher.run(QString::fromStdString(v.root().string()))->epochs.size() == 1,
            2000);
    }
};

QTEST_GUILESS_MAIN(tst_LightningLayout)
#include "tst_LightningLayout.moc"
