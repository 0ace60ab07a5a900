#include "CandleFixture.h"
#include "candle/CandleHistory.h"
#include "candle/CandleLayout.h"
#include "history/HistoryBuilder.h"
#include "history/LocalTime.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstdio>

using namespace ckpt;
using ckpt::test::CandleFixture;

class tst_HistoryBuilder : public QObject
{
    Q_OBJECT

private slots:
    void restartWithEverySource();
    void latestPerEpochTakesTheRestartedRows();
    void withoutCkptLogSegmentsComeFromCkptInfo();
    void rollbackKeepsUnoverwrittenEpochsInTheirProcess();
    void trainingLogOnly();
    void trainingLogThatFitsNoProcessGetsItsOwnSegment();
    void unreadableFilesAreProblems();
    void parseProblemsAreCollected();
    void buildsFromALoadedCandleTree();

private:
    QTemporaryDir m_dir;
};

namespace {

std::string fmt(const char* format, double a, double b = 0)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, format, a, b);
    return buf;
}

// Process 1 reached val_loss v1(e), process 2 (resumed from 8) v2(e).
double v1(int e)
{
    return 1.0 - e * 0.01;
}
double v2(int e)
{
    return 0.9 - e * 0.01 + 0.0001234567;
}

std::string logLine(int hour, int minute, const std::string& message)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "2026-11-22 %02d:%02d:00,000 CandleCkpt: ", hour, minute);
    return buf + message + "\n";
}

std::string stamp(int hour, int minute, int second)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "2026-11-22 %02d:%02d:%02d", hour, minute, second);
    return buf;
}

Epoch makeEpoch(int number, double best, const std::string& timestamp, bool first)
{
    Epoch e;
    e.number = number;
    EpochFile model;
    model.name = "model.h5";
    model.bytes = 2 * 1024 * 1024;
    model.present = true;
    model.model = true;
    e.files.push_back(model);
    e.recorded = true;
    e.setMetric(kBestSoFar, best);
    e.savedAt = timestamp;
    e.firstSave = first;
    if (!first)
        e.elapsed = 60.0;
    return e;
}

const HistoryRow* rowAt(const MetricHistory& h, int segment, int epoch)
{
    for (const auto& r : h.rows)
        if (r.segment == segment && r.epoch == epoch)
            return &r;
    return nullptr;
}

// For chained use: an empty row (epoch 0) when there is none.
const HistoryRow& row(const MetricHistory& h, int segment, int epoch)
{
    static const HistoryRow none;
    const HistoryRow* r = rowAt(h, segment, epoch);
    return r ? *r : none;
}

std::optional<double> valueFrom(const HistoryRow& row, std::string_view metric, MetricSource source)
{
    for (const auto& s : row.samples)
        if (s.metric == metric && s.source == source)
            return s.value;
    return std::nullopt;
}

} // namespace

// The brief's case: process 1 ran epochs 1..12, `last` was rolled back to 8 and
// process 2 resumed there, ran 9..15 and overwrote training.log.
static Run restartedRun(const std::filesystem::path& root)
{
    std::string log = logLine(13, 0, "Callback initialized.");
    for (int e = 1; e <= 12; ++e)
        log += logLine(13, e, fmt("metrics: val_loss: current=%f < last=%f", v1(e), v1(e - 1)));
    log += logLine(14, 0, "Callback initialized.");
    log += logLine(14, 0, "restarting: 'save/ckpts/last/model.h5'");
    log += logLine(14, 0, "ckpt-info.json contains:") + "{\n  \"epoch\": 8\n}\n";
    log += logLine(14, 0, "restarting from epoch: 8");
    for (int e = 9; e <= 15; ++e) {
        log += logLine(14, e, fmt("metrics: val_loss: current=%f < last=%f", v2(e), v2(e - 1)));
        if (e >= 10) { // the first save of process 2 came at 10
            log += logLine(14, e, "writing model to: 'save/ckpts/work/model.h5'");
            log += logLine(14, e, "model wrote: 2.000 MB in 0.500 seconds (4.00 MB/s).");
        }
    }
    std::string training = "epoch,loss,val_loss\r\n";
    std::string history = "{\"loss\": [";
    for (int e = 9; e <= 15; ++e) {
        training += std::to_string(e - 1) + fmt(",%.10g,%.10g\r\n", 2 * v2(e), v2(e));
        history += std::string(e > 9 ? ", " : "") + fmt("%.10g", 2 * v2(e));
    }
    history += "]}";

    CandleFixture::writeText(root / "ckpt.log", log);
    CandleFixture::writeText(root / "training.log", training);
    CandleFixture::writeText(root / "history.txt", history);

    Run run;
    run.root = root.string();
    run.layout = "candle";
    run.sources.push_back({std::string(CandleLayout::kCkptLog), (root / "ckpt.log").string()});
    run.sources.push_back(
        {std::string(CandleLayout::kTrainingLog), (root / "training.log").string()});
    run.sources.push_back(
        {std::string(CandleLayout::kHistoryTxt), (root / "history.txt").string()});
    for (int e = 1; e <= 8; ++e)
        run.epochs.push_back(makeEpoch(e, v1(e), stamp(13, e, 30), e == 1));
    for (int e = 10; e <= 15; ++e)
        run.epochs.push_back(makeEpoch(e, v2(e), stamp(14, e, 30), e == 10));
    return run;
}

void tst_HistoryBuilder::restartWithEverySource()
{
    const auto root = std::filesystem::path(m_dir.filePath("restart").toStdString());
    const MetricHistory h = CandleHistory::build(restartedRun(root));

    QVERIFY2(h.problems.empty(), h.problems.empty() ? "" : h.problems[0].message.c_str());
    QCOMPARE(h.segments.size(), std::size_t(2));
    QCOMPARE(h.segments[0].resumedFrom, std::optional<int>());
    QCOMPARE(h.segments[0].firstEpoch, std::optional<int>(1));
    QCOMPARE(h.segments[0].lastEpoch, std::optional<int>(12));
    QCOMPARE(h.segments[0].startedAt, std::string("2026-11-22 13:00:00,000"));
    // ckpt.log's restart line beats ckpt-info's guess (first save at 10 -> 9).
    QCOMPARE(h.segments[1].resumedFrom, std::optional<int>(8));
    QCOMPARE(h.segments[1].firstEpoch, std::optional<int>(9));
    QCOMPARE(h.segments[1].lastEpoch, std::optional<int>(15));
    QCOMPARE(h.rows.size(), std::size_t(12 + 7));

    // Rows sorted by (segment, epoch).
    for (std::size_t i = 1; i < h.rows.size(); ++i)
        QVERIFY(std::pair(h.rows[i - 1].segment, h.rows[i - 1].epoch) <
                std::pair(h.rows[i].segment, h.rows[i].epoch));

    // Process 1: ckpt.log metrics, ckpt-info of the kept epochs (placed by time).
    const HistoryRow* r5 = rowAt(h, 0, 5);
    QVERIFY(r5);
    QCOMPARE(r5->sourceOf("val_loss"), std::optional(MetricSource::CkptLog));
    QCOMPARE(*r5->value("val_loss"), 0.95);
    QCOMPARE(r5->sourceOf("best_so_far"), std::optional(MetricSource::CkptInfo));
    QCOMPARE(*r5->value("best_so_far"), v1(5));
    QCOMPARE(*r5->value("time_elapsed"), 60.0);
    QCOMPARE(*r5->value("model_mb"), 2.0);
    QVERIFY(!r5->value("loss")); // training.log holds process 2 only
    QCOMPARE(*r5->wallTime, *LocalTime::parse("2026-11-22 13:05:00,000"));
    const HistoryRow* r11 = rowAt(h, 0, 11);
    QVERIFY(r11);
    QCOMPARE(r11->sourceOf("val_loss"), std::optional(MetricSource::CkptLog));
    QVERIFY(!r11->value("best_so_far")); // overwritten by process 2 on disk

    // Process 2: training.log is the richest, every source present and tagged.
    const HistoryRow* r10 = rowAt(h, 1, 10);
    QVERIFY(r10);
    QCOMPARE(r10->sourceOf("val_loss"), std::optional(MetricSource::TrainingLog));
    QCOMPARE(*r10->value("val_loss"), std::stod(fmt("%.10g", v2(10))));
    QCOMPARE(*valueFrom(*r10, "val_loss", MetricSource::CkptLog), std::stod(fmt("%f", v2(10))));
    QCOMPARE(r10->sourceOf("loss"), std::optional(MetricSource::TrainingLog));
    QCOMPARE(*valueFrom(*r10, "loss", MetricSource::HistoryTxt),
             std::stod(fmt("%.10g", 2 * v2(10))));
    QCOMPARE(r10->sourceOf("write_mb_s"), std::optional(MetricSource::CkptLog));
    QCOMPARE(*r10->value("write_mb_s"), 4.0);
    QCOMPARE(r10->sourceOf("best_so_far"), std::optional(MetricSource::CkptInfo));
    QVERIFY(!r10->value("time_elapsed")); // "__FIRST__"
    // history.txt of the resumed process starts at epoch 9, not 1.
    const HistoryRow* r9 = rowAt(h, 1, 9);
    QVERIFY(r9);
    QVERIFY(valueFrom(*r9, "loss", MetricSource::HistoryTxt));
    QVERIFY(!rowAt(h, 1, 1));
    QVERIFY(!valueFrom(row(h, 0, 1), "loss", MetricSource::HistoryTxt));

    const auto names = h.metricNames();
    QCOMPARE(names, (std::vector<std::string>{"best_so_far", "loss", "model_mb", "time_elapsed",
                                              "val_loss", "write_mb_s"}));
}

void tst_HistoryBuilder::latestPerEpochTakesTheRestartedRows()
{
    const auto root = std::filesystem::path(m_dir.filePath("latest").toStdString());
    const MetricHistory h = CandleHistory::build(restartedRun(root));
    const auto latest = h.latestPerEpoch();
    QCOMPARE(latest.size(), std::size_t(15));
    for (int e = 1; e <= 15; ++e) {
        QCOMPARE(latest[static_cast<std::size_t>(e - 1)]->epoch, e);
        QCOMPARE(latest[static_cast<std::size_t>(e - 1)]->segment, e <= 8 ? 0 : 1);
    }
}

void tst_HistoryBuilder::withoutCkptLogSegmentsComeFromCkptInfo()
{
    // training.log appended by both processes (no second header); process 2's
    // first save came at 10, so ckpt-info alone would guess "resumed from 9".
    const auto root = std::filesystem::path(m_dir.filePath("noLog").toStdString());
    std::string training = "epoch,loss\n";
    for (int e = 1; e <= 12; ++e)
        training += std::to_string(e - 1) + fmt(",%.10g\n", v1(e));
    for (int e = 9; e <= 15; ++e)
        training += std::to_string(e - 1) + fmt(",%.10g\n", v2(e));
    CandleFixture::writeText(root / "training.log", training);

    Run run;
    run.root = root.string();
    run.sources.push_back(
        {std::string(CandleLayout::kTrainingLog), (root / "training.log").string()});
    for (int e = 1; e <= 8; ++e)
        run.epochs.push_back(makeEpoch(e, v1(e), stamp(13, e, 30), e == 1));
    for (int e = 10; e <= 15; ++e)
        run.epochs.push_back(makeEpoch(e, v2(e), stamp(14, e, 30), e == 10));

    const MetricHistory h = CandleHistory::build(run);
    QVERIFY(h.problems.empty());
    QCOMPARE(h.segments.size(), std::size_t(2));
    QCOMPARE(h.segments[0].resumedFrom, std::optional<int>());
    QCOMPARE(h.segments[1].resumedFrom, std::optional<int>(8)); // training.log says better
    QCOMPARE(h.segments[0].lastEpoch, std::optional<int>(12));
    QCOMPARE(h.segments[1].firstEpoch, std::optional<int>(9));
    QCOMPARE(h.segments[1].startedAt, stamp(14, 10, 30));
    QCOMPARE(*row(h, 0, 5).value("loss"), std::stod(fmt("%.10g", v1(5))));
    QCOMPARE(*row(h, 0, 5).value("best_so_far"), v1(5));
    QCOMPARE(*row(h, 0, 12).value("loss"), std::stod(fmt("%.10g", v1(12))));
    QCOMPARE(*row(h, 1, 12).value("loss"), std::stod(fmt("%.10g", v2(12))));
    QCOMPARE(*row(h, 1, 12).value("best_so_far"), v2(12));
    QCOMPARE(row(h, 1, 12).wallTime, LocalTime::parse(stamp(14, 12, 30)));
    QVERIFY(!row(h, 1, 9).wallTime);
}

void tst_HistoryBuilder::rollbackKeepsUnoverwrittenEpochsInTheirProcess()
{
    // Process 1 saved 1..12; `last` rolled back to 5; process 2 saved 6, 7 and
    // died. 8..12 on disk are still process 1's.
    Run run;
    run.root = m_dir.filePath("rollback").toStdString();
    for (int e = 1; e <= 12; ++e)
        if (e < 6 || e > 7)
            run.epochs.push_back(makeEpoch(e, v1(e), stamp(13, e, 0), e == 1));
    run.epochs.push_back(makeEpoch(6, 0.5, stamp(15, 6, 0), true));
    run.epochs.push_back(makeEpoch(7, 0.4, stamp(15, 7, 0), false));
    auto& sorted = run.epochs.edit();
    std::sort(sorted.begin(), sorted.end(),
              [](const Epoch& a, const Epoch& b) { return a.number < b.number; });

    const MetricHistory h = CandleHistory::build(run);
    QCOMPARE(h.segments.size(), std::size_t(2));
    QCOMPARE(h.segments[1].resumedFrom, std::optional<int>(5));
    QCOMPARE(h.rows.size(), std::size_t(12));
    QVERIFY(rowAt(h, 0, 12));
    QVERIFY(rowAt(h, 1, 7));
    const auto latest = h.latestPerEpoch();
    QCOMPARE(latest.size(), std::size_t(12));
    QCOMPARE(latest[5]->segment, 1);
    QCOMPARE(latest[7]->segment, 0);
}

void tst_HistoryBuilder::trainingLogOnly()
{
    const auto root = std::filesystem::path(m_dir.filePath("tlOnly").toStdString());
    CandleFixture::writeText(root / "training.log",
                             "epoch,loss\n0,0.5\n1,0.4\n2,0.3\nepoch,loss,lr\n1,0.35,0.01\n");
    Run run;
    run.root = root.string();
    run.sources.push_back(
        {std::string(CandleLayout::kTrainingLog), (root / "training.log").string()});
    const MetricHistory h = CandleHistory::build(run);
    QCOMPARE(h.segments.size(), std::size_t(2));
    QCOMPARE(h.segments[1].resumedFrom, std::optional<int>(1));
    QCOMPARE(h.rows.size(), std::size_t(4));
    const auto latest = h.latestPerEpoch();
    QCOMPARE(latest.size(), std::size_t(3));
    QCOMPARE(latest[1]->segment, 1);
    QCOMPARE(*latest[1]->value("loss"), 0.35);
    QCOMPARE(*latest[1]->value("lr"), 0.01);
    QCOMPARE(*latest[2]->value("loss"), 0.3);
}

void tst_HistoryBuilder::trainingLogThatFitsNoProcessGetsItsOwnSegment()
{
    // ckpt.log knows one process, resumed from 8; training.log is a fresh run.
    const auto root = std::filesystem::path(m_dir.filePath("misfit").toStdString());
    CandleFixture::writeText(root / "ckpt.log",
                             logLine(14, 0, "Callback initialized.") +
                                 logLine(14, 0, "restarting from epoch: 8") +
                                 logLine(14, 9, "metrics: loss: current=0.500000 < last=inf"));
    CandleFixture::writeText(root / "training.log", "epoch,loss\n0,0.9\n");
    Run run;
    run.root = root.string();
    run.sources.push_back({std::string(CandleLayout::kCkptLog), (root / "ckpt.log").string()});
    run.sources.push_back(
        {std::string(CandleLayout::kTrainingLog), (root / "training.log").string()});
    const MetricHistory h = CandleHistory::build(run);
    QCOMPARE(h.segments.size(), std::size_t(2));
    QCOMPARE(h.rows.size(), std::size_t(2));
    const HistoryRow* fresh = nullptr;
    for (const auto& r : h.rows)
        if (r.epoch == 1)
            fresh = &r;
    QVERIFY(fresh);
    QCOMPARE(fresh->sourceOf("loss"), std::optional(MetricSource::TrainingLog));
    QCOMPARE(fresh->segment, 1); // after the processes it could not be matched with
    QVERIFY(rowAt(h, 0, 9));
}

void tst_HistoryBuilder::unreadableFilesAreProblems()
{
    Run run;
    run.root = m_dir.filePath("unreadable").toStdString();
    run.sources.push_back({std::string(CandleLayout::kCkptLog), run.root + "/missing/ckpt.log"});
    run.sources.push_back(
        {std::string(CandleLayout::kTrainingLog), run.root + "/missing/training.log"});
    run.epochs.push_back(makeEpoch(1, 0.5, stamp(13, 1, 0), true));
    const MetricHistory h = CandleHistory::build(run);
    QCOMPARE(h.problems.size(), std::size_t(2));
    for (const auto& p : h.problems) {
        QVERIFY(p.kind == ProblemKind::Unreadable);
        QVERIFY(p.message.find("/missing/") != std::string::npos);
    }
    QCOMPARE(h.rows.size(), std::size_t(1));
    QCOMPARE(h.segments.size(), std::size_t(1));
    QCOMPARE(*h.rows[0].value("best_so_far"), 0.5);
}

void tst_HistoryBuilder::parseProblemsAreCollected()
{
    const auto root = std::filesystem::path(m_dir.filePath("bad").toStdString());
    CandleFixture::writeText(root / "training.log", "epoch,loss\n0,zero\n1,0.4\n");
    CandleFixture::writeText(root / "history.txt", "{\"loss\": [");
    Run run;
    run.root = root.string();
    run.sources.push_back(
        {std::string(CandleLayout::kTrainingLog), (root / "training.log").string()});
    run.sources.push_back(
        {std::string(CandleLayout::kHistoryTxt), (root / "history.txt").string()});
    const MetricHistory h = CandleHistory::build(run);
    QCOMPARE(h.problems.size(), std::size_t(2));
    QVERIFY(h.problems[0].kind == ProblemKind::BadLog);
    QVERIFY(h.problems[0].message.find("training.log:2:") != std::string::npos);
    QVERIFY(h.problems[1].message.find("history.txt: ") != std::string::npos);
    QCOMPARE(h.rows.size(), std::size_t(1));
}

void tst_HistoryBuilder::buildsFromALoadedCandleTree()
{
    // Oldest layout: <out>/save/ckpts/epochs/NNN, <out>/save/ckpt.log, <out>/training.log.
    // Process 1 ran 1..6; `last` was rolled back to 2; process 2 resumed there,
    // saved 3..8 over process 1's epochs and overwrote training.log.
    const std::filesystem::path out = m_dir.filePath("tree/out").toStdString();
    CandleFixture fx(out / "save" / "ckpts");
    const auto best = [](int e) { return e <= 2 ? 1.0 - 0.1 * e : 0.7 - 0.05 * e; };
    for (int e = 1; e <= 2; ++e)
        fx.addEpoch(e, best(e), 64, e == 1); // stamped 2026-11-22 13:00:0e
    for (int e = 3; e <= 8; ++e)
        fx.addEpoch(e, best(e), 128, e == 3);
    fx.linkAbsolute("last", 8);

    auto line = [](const char* time, const std::string& message) {
        return "2026-11-22 " + std::string(time) + " CandleCheckpoint: " + message + "\n";
    };
    std::string log = line("12:00:00,000", "Callback initialized.");
    for (int e = 1; e <= 6; ++e)
        log += line("12:00:30,000", fmt("metrics: val_loss: current=%f < last=1.0", 1.0 - 0.1 * e));
    log += line("13:00:03,000", "Callback initialized.") +
           line("13:00:03,000", "restarting from epoch: 2");
    std::string training = "epoch,loss,val_loss\n";
    for (int e = 3; e <= 8; ++e) {
        log += line("13:00:09,000", fmt("metrics: val_loss: current=%f < last=%f", 0.5 - 0.01 * e,
                                        0.5 - 0.01 * (e - 1)));
        training += std::to_string(e - 1) + fmt(",%.12g,%.12g\n", 1.0 - 0.01 * e, 0.5 - 0.01 * e);
    }
    CandleFixture::writeText(out / "save" / "ckpt.log", log);
    CandleFixture::writeText(out / "training.log", training);

    const Run run = CandleLayout::instance().loadRun(out / "save" / "ckpts");
    QCOMPARE(run.epochs.size(), std::size_t(8));
    QVERIFY(!run.sourcePath(CandleLayout::kCkptLog).empty());
    QVERIFY(!run.sourcePath(CandleLayout::kTrainingLog).empty());

    const MetricHistory h = CandleHistory::build(run);
    QVERIFY2(h.problems.empty(), h.problems.empty() ? "" : h.problems[0].message.c_str());
    QCOMPARE(h.segments.size(), std::size_t(2));
    QCOMPARE(h.segments[0].lastEpoch, std::optional<int>(6));
    QCOMPARE(h.segments[1].resumedFrom, std::optional<int>(2));
    QCOMPARE(h.segments[1].firstEpoch, std::optional<int>(3));
    QCOMPARE(h.segments[1].lastEpoch, std::optional<int>(8));

    QCOMPARE(*row(h, 0, 2).value("best_so_far"), best(2));
    QCOMPARE(*row(h, 0, 2).value("model_mb"), 64.0 / (1024 * 1024));
    QCOMPARE(*row(h, 0, 5).value("val_loss"), 0.5);
    QVERIFY(!row(h, 0, 5).value("best_so_far")); // process 2 overwrote it on disk
    QCOMPARE(row(h, 1, 5).sourceOf("val_loss"), std::optional(MetricSource::TrainingLog));
    QCOMPARE(*row(h, 1, 5).value("loss"), 0.95);
    QCOMPARE(*row(h, 1, 5).value("best_so_far"), best(5));
    QCOMPARE(*row(h, 1, 5).value("time_elapsed"), 0.5);
    QVERIFY(!row(h, 1, 3).value("time_elapsed")); // "__FIRST__"

    const auto latest = h.latestPerEpoch();
    QCOMPARE(latest.size(), std::size_t(8));
    for (const HistoryRow* r : latest)
        QCOMPARE(r->segment, r->epoch <= 2 ? 0 : 1);
}

QTEST_GUILESS_MAIN(tst_HistoryBuilder)
#include "tst_HistoryBuilder.moc"
