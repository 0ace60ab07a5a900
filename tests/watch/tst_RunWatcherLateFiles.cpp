#include "layout/Layout.h"
#include "watch/RunWatcher.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <CandleFixture.h>
#include <LightningFixture.h>
#include <OrbaxFixture.h>
#include <ProtobufFixture.h>
#include <algorithm>
#include <filesystem>
#include <fstream>

using namespace ckpt;
using test::CandleFixture;
using test::LightningFixture;
using test::OrbaxFixture;
using test::ProtobufFixture;
namespace fs = std::filesystem;

namespace {

constexpr int kLimitMs = 1000; // "picked up within a second"

RunWatcher::Options watcherOptions(bool polling)
{
    RunWatcher::Options o;
    o.debounceMs = 50;
    o.rescanIntervalMs = 0; // the safety rescan must not be what finds the file
    o.polling = polling;
    o.pollIntervalMs = 50;
    return o;
}

// A file of a run that its trainer creates after the run was opened.
struct LateFile
{
    fs::path root;      // the run's root
    fs::path file;      // where the file appears
    std::string kind;   // the RunSource kind the layout reads it as
    std::string text;   // what is written there
    std::string metric; // a metric the run's history has only from this file
};

// Creates `file` as a trainer does: written in place, or written aside and
// renamed into place (an atomic writer); the folder sees IN_CREATE or IN_MOVED_TO.
void create(const fs::path& file, const std::string& text, bool aside)
{
    if (!aside) {
        CandleFixture::writeText(file, text);
        return;
    }
    const fs::path tmp = file.parent_path() / ("." + file.filename().string() + ".part");
    CandleFixture::writeText(tmp, text);
    fs::rename(tmp, file);
}

void candleRun(const fs::path& root)
{
    CandleFixture fx(root);
    for (int e = 1; e <= 2; ++e)
        fx.addEpoch(e, 1.0 / e, 64, e == 1);
    fx.linkAbsolute("last", 2);
    fx.linkAbsolute("best", 2);
}

const std::string kCkptLog =
    "2026-11-22 13:00:00,250 CandleCheckpoint: Callback initialized.\n"
    "2026-11-22 13:01:00,250 CandleCheckpoint: metrics: late_loss: current=0.500000 < last=inf\n"
    "2026-11-22 13:02:00,250 CandleCheckpoint: metrics: late_loss: current=0.250000 < "
    "last=0.500000\n";

// The run of `source` below `drop`, without the file; the file is described, not written.
LateFile makeRun(const QString& source, const fs::path& drop)
{
    const fs::path candle = drop / "exp" / "run1" / "save" / "ckpts";
    if (source == QLatin1String("candle ckpt.log")) {
        candleRun(candle);
        return {candle, candle / "ckpt.log", "ckpt_log", kCkptLog, "late_loss"};
    }
    if (source == QLatin1String("candle training.log")) {
        candleRun(candle);
        return {candle, candle / "training.log", "training_log", "epoch,late_loss\n0,0.5\n1,0.25\n",
                "late_loss"};
    }
    if (source == QLatin1String("candle training.log above the root")) {
        // CANDLE's older runs log into the output folder above save/ckpts.
        candleRun(candle);
        return {candle, candle.parent_path().parent_path() / "training.log", "training_log",
                "epoch,late_loss\n0,0.5\n1,0.25\n", "late_loss"};
    }
    if (source == QLatin1String("candle history.txt")) {
        candleRun(candle);
        return {candle, candle / "history.txt", "history_txt", "{\"late_loss\": [0.5, 0.25]}\n",
                "late_loss"};
    }
    const fs::path version = drop / "lightning_logs" / "version_0";
    if (source == QLatin1String("lightning metrics.csv")) {
        LightningFixture f(version); // hparams.yaml, no metrics.csv
        f.addCheckpoint(0, 10);
        f.addCheckpoint(1, 20);
        return {version, version / "metrics.csv", "metrics_csv",
                "epoch,step,late_loss\n0,9,0.5\n1,19,0.25\n", "late_loss"};
    }
    if (source == QLatin1String("lightning hparams.yaml")) {
        LightningFixture f(version);
        f.addCheckpoint(0, 10);
        f.addCheckpoint(1, 20);
        f.writeMetrics("epoch,step,val_loss\n0,9,0.5\n1,19,0.25\n");
        fs::remove(version / "hparams.yaml"); // a version folder by its metrics.csv alone
        return {version, version / "hparams.yaml", "hparams", "lr: 0.001\nlayers: 3\n", {}};
    }
    if (source == QLatin1String("mindspore graph.meta")) {
        const fs::path ms = drop / "ms";
        fs::create_directories(ms);
        for (int e = 1; e <= 2; ++e)
            ProtobufFixture::write(
                ms / ("net-" + std::to_string(e) + "_10.ckpt"),
                ProtobufFixture::mindspore(ProtobufFixture::network(e, 10), true), true);
        return {ms, ms / "net-graph.meta", "graph_meta", "graph", {}};
    }
    qFatal("unknown source %s", qPrintable(source));
    return {};
}

bool hasMetric(const Run& run, const std::string& metric)
{
    const auto names = historyOf(run).metricNames();
    return std::find(names.begin(), names.end(), metric) != names.end();
}

} // namespace

// Item 4 of issue 36: a metric log, config or event file that appears after a
// run was opened is picked up within a second, for every layout that reads one.
class tst_RunWatcherLateFiles : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;

    fs::path dropFolder()
    {
        const char* tag = QTest::currentDataTag();
        return fs::path(m_tmp.path().toStdString()) / QTest::currentTestFunction() /
               (tag ? tag : "");
    }

private slots:
    void initTestCase() { QVERIFY(m_tmp.isValid()); }

    void fileCreatedAfterOpenIsRead_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<bool>("aside");
        QTest::addColumn<bool>("polling");
        const char* sources[] = {
            "candle ckpt.log",     "candle training.log",   "candle training.log above the root",
            "candle history.txt",  "lightning metrics.csv", "lightning hparams.yaml",
            "mindspore graph.meta"};
        for (const char* source : sources)
            for (bool aside : {false, true})
                for (bool polling : {false, true})
                    QTest::addRow("%s, %s, %s", source, aside ? "renamed in" : "written",
                                  polling ? "polling" : "inotify")
                        << QString::fromLatin1(source) << aside << polling;
    }
    void fileCreatedAfterOpenIsRead()
    {
        QFETCH(QString, source);
        QFETCH(bool, aside);
        QFETCH(bool, polling);
        const fs::path drop = dropFolder();
        const LateFile late = makeRun(source, drop);
        const QString root = QString::fromStdString(late.root.string());

        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(drop.string()));
        const auto before = watcher.run(root);
        QVERIFY(before);
        QCOMPARE(before->sourcePath(late.kind), std::string());
        if (!late.metric.empty())
            QVERIFY(!hasMetric(*before, late.metric));

        // What a listener sees, in order: the run's new sources (runHeadChanged)
        // must come before the request to read them (sourcesChanged).
        QStringList heard;
        connect(&watcher, &RunWatcher::runHeadChanged, this, [&](const Run& head) {
            heard << QStringLiteral("head ") + QString::fromStdString(head.sourcePath(late.kind));
        });
        connect(&watcher, &RunWatcher::sourcesChanged, this,
                [&](const QString& r) { heard << QStringLiteral("sources ") + r; });
        QSignalSpy changed(&watcher, &RunWatcher::sourcesChanged);

        create(late.file, late.text, aside);
        QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), kLimitMs);
        QCOMPARE(changed.first().first().toString(), root);
        const QString head = QStringLiteral("head ") + QString::fromStdString(late.file.string());
        const auto headAt = heard.indexOf(head);
        QVERIFY2(headAt >= 0 && headAt < heard.indexOf(QStringLiteral("sources ") + root),
                 qPrintable(heard.join(QStringLiteral(" | "))));

        const auto after = watcher.run(root);
        QVERIFY(after);
        QCOMPARE(after->sourcePath(late.kind), late.file.string());
        if (!late.metric.empty())
            QVERIFY(hasMetric(*after, late.metric));

        // Watched from now on like a file that was there from the start.
        const auto count = changed.count();
        {
            std::ofstream append(late.file, std::ios::app);
            append << "\n";
        }
        QTRY_VERIFY_WITH_TIMEOUT(changed.count() > count, kLimitMs);
    }

    void stepMetadataWrittenAfterTheStepIsRead_data()
    {
        QTest::addColumn<bool>("aside");
        QTest::addColumn<bool>("polling");
        for (bool aside : {false, true})
            for (bool polling : {false, true})
                QTest::addRow("%s, %s", aside ? "renamed in" : "written",
                              polling ? "polling" : "inotify")
                    << aside << polling;
    }
    void stepMetadataWrittenAfterTheStepIsRead()
    {
        // Orbax keeps a step's metrics in the step's own _CHECKPOINT_METADATA:
        // a step folder seen before that file is the epoch without its metrics.
        QFETCH(bool, aside);
        QFETCH(bool, polling);
        const fs::path drop = dropFolder();
        const fs::path root = drop / "orbax";
        OrbaxFixture f(root, "checkpoint_");
        f.addStep(100, {{"loss", 0.5}});
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(drop.string()));
        QVERIFY(watcher.run(QString::fromStdString(root.string())));
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        QSignalSpy changed(&watcher, &RunWatcher::epochChanged);

        fs::create_directories(f.stepDir(200) / "default");
        CandleFixture::writeText(f.stepDir(200) / "default" / "data", "payload");
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, kLimitMs);
        QVERIFY(!added.first().at(1).value<Epoch>().hasRecord());

        create(f.stepDir(200) / "_CHECKPOINT_METADATA",
               OrbaxFixture::metadataJson(200, {{"late_loss", 0.25}}, 1763900000), aside);
        QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), kLimitMs);
        const Epoch epoch = changed.last().at(1).value<Epoch>();
        QCOMPARE(epoch.number, 200);
        QVERIFY(epoch.hasRecord());
        QCOMPARE(epoch.metric("late_loss"), std::optional<double>(0.25));
    }
};

QTEST_GUILESS_MAIN(tst_RunWatcherLateFiles)
#include "tst_RunWatcherLateFiles.moc"
