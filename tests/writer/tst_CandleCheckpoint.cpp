#include "candle/CandleLayout.h"
#include "config/HyperParams.h"
#include "io/AtomicFile.h"
#include "writer/CandleCheckpoint.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

using namespace ckpt;
namespace fs = std::filesystem;

namespace {

CandleCheckpointOptions optionsIn(const QTemporaryDir& dir, int epochs)
{
    CandleCheckpointOptions o;
    o.epochs = epochs;
    o.root = fs::path(dir.path().toStdString()) / "ckpts";
    o.logPath = o.root / "ckpt.log";
    return o;
}

// Any bytes will do: the protocol does not look inside the model file.
CandleCheckpoint::ModelSaver saverFor(int epoch)
{
    return [epoch](const fs::path& p) {
        return writeFileAtomically(p, "model of epoch " + std::to_string(epoch) +
                                          std::string(1000, static_cast<char>('a' + epoch % 26)));
    };
}

// Runs epochs first..first+values.size()-1 with the metric values given.
void runEpochs(CandleCheckpoint& ckpt, int first, const std::vector<double>& values,
               const std::string& metric = "val_loss")
{
    for (std::size_t i = 0; i < values.size(); ++i) {
        const int epoch = first + static_cast<int>(i);
        auto r = ckpt.onEpochEnd(epoch, {{metric, values[i]}, {"loss", 1.0}}, saverFor(epoch));
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    }
}

QStringList epochDirs(const CandleCheckpointOptions& o)
{
    return QDir(QString::fromStdString((o.root / "epochs").string()))
        .entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

QString linkTarget(const CandleCheckpointOptions& o, const char* name)
{
    return QFileInfo(QString::fromStdString((o.root / name).string())).symLinkTarget();
}

QString text(const fs::path& p)
{
    QFile f(QString::fromStdString(p.string()));
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString info(const CandleCheckpointOptions& o, int epoch)
{
    return text(o.root / "epochs" / CandleLayout::epochDirName(epoch) / "ckpt-info.json");
}

} // namespace

class tst_CandleCheckpoint : public QObject
{
    Q_OBJECT

private slots:
    void shouldSave_data();
    void shouldSave();
    void direction_data();
    void direction();
    void savesLinksAndInfo();
    void intervalAndSkipInPractice();
    void infinityBehaviour_data();
    void infinityBehaviour();
    void checksumIsZlibCrc32();
    void pruneKeepsNewestBestAndLimit();
    void pruneNeverTouchesEarlierRuns();
    void logLines();
    void unknownMetricIsAnError();
    void restartOffAndAutoFresh();
    void restartAutoResumes();
    void restartRequiredMissingFails();
    void restartChecksumMismatchFails();
    void restartDisabledChecksumFailsUnderChecksum();
    void restartAfterRollbackOverwritesLaterEpochs();
    void timestampLastMakesFirstSaveTimed();
    void optionsFromParams();
};

void tst_CandleCheckpoint::shouldSave_data()
{
    QTest::addColumn<int>("epoch");
    QTest::addColumn<int>("epochMax");
    QTest::addColumn<int>("skip");
    QTest::addColumn<int>("interval");
    QTest::addColumn<bool>("improved");
    QTest::addColumn<bool>("expected");
    QTest::newRow("improved") << 3 << 10 << 0 << 5 << true << true;
    QTest::newRow("not improved, off interval") << 3 << 10 << 0 << 5 << false << false;
    QTest::newRow("on interval") << 5 << 10 << 0 << 5 << false << true;
    QTest::newRow("interval 1 saves all") << 7 << 10 << 0 << 1 << false << true;
    QTest::newRow("final epoch") << 10 << 10 << 0 << 3 << false << true;
    QTest::newRow("interval 0 never, even improved") << 4 << 10 << 0 << 0 << true << false;
    QTest::newRow("interval 0 never, even final") << 10 << 10 << 0 << 0 << false << false;
    QTest::newRow("before skip, improved") << 2 << 10 << 3 << 1 << true << false;
    QTest::newRow("before skip, final") << 2 << 2 << 3 << 1 << false << false;
    QTest::newRow("at skip") << 3 << 10 << 3 << 1 << false << true;
    QTest::newRow("after skip, off interval") << 4 << 10 << 3 << 3 << false << false;
    QTest::newRow("after skip, on interval") << 6 << 10 << 3 << 3 << false << true;
}

void tst_CandleCheckpoint::shouldSave()
{
    QFETCH(int, epoch);
    QFETCH(int, epochMax);
    QFETCH(int, skip);
    QFETCH(int, interval);
    QFETCH(bool, improved);
    QFETCH(bool, expected);
    QCOMPARE(CandleCheckpoint::shouldSave(epoch, epochMax, skip, interval, improved), expected);
}

void tst_CandleCheckpoint::direction_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<int>("expected"); // -1 lower, 1 higher, 0 unknown
    QTest::newRow("loss") << "loss" << -1;
    QTest::newRow("val_loss") << "val_loss" << -1;
    QTest::newRow("lr") << "lr" << -1;
    QTest::newRow("accuracy") << "accuracy" << 1;
    QTest::newRow("val_accuracy") << "val_accuracy" << 1;
    QTest::newRow("mae") << "val_mae" << 0;
}

void tst_CandleCheckpoint::direction()
{
    QFETCH(QString, metric);
    QFETCH(int, expected);
    const auto d = CandleCheckpoint::direction(metric.toStdString());
    const int got = !d ? 0 : (*d == CandleCheckpoint::Direction::Lower ? -1 : 1);
    QCOMPARE(got, expected);
}

void tst_CandleCheckpoint::savesLinksAndInfo()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 5);
    o.metadata = "job 4242";
    CandleCheckpoint ckpt(o);
    QVERIFY(ckpt.initialize().ok());
    runEpochs(ckpt, 1, {0.9, 0.8, 0.85, 0.7, 0.75});
    QCOMPARE(epochDirs(o), (QStringList{"001", "002", "003", "004", "005"}));
    QVERIFY(!QFileInfo::exists(QString::fromStdString((o.root / "work").string())));
    const QString root = QString::fromStdString(fs::canonical(o.root).string());
    QCOMPARE(linkTarget(o, "best"), root + "/epochs/004");
    QCOMPARE(linkTarget(o, "last"), root + "/epochs/005");
    QVERIFY(QFileInfo(QString::fromStdString((o.root / "last").string())).isSymLink());
    fs::path rawLink = fs::read_symlink(o.root / "last");
    QVERIFY(rawLink.is_absolute());

    static const QRegularExpression first(
        R"(^\{"epoch": 1, "save_best_metric": "val_loss", "best_metric_last": 0.9, "model_file": "model.h5", "checksum": "__DISABLED__", "timestamp": "\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "time_elapsed": "__FIRST__", "metadata": "job 4242"\}\n$)");
    QVERIFY2(first.match(info(o, 1)).hasMatch(), qPrintable(info(o, 1)));
    // best_metric_last is the best so far, not this epoch's value.
    static const QRegularExpression third(
        R"(^\{"epoch": 3, "save_best_metric": "val_loss", "best_metric_last": 0.8, .*"time_elapsed": \d+\.\d+(e-\d+)?, "metadata": "job 4242"\}\n$)");
    QVERIFY2(third.match(info(o, 3)).hasMatch(), qPrintable(info(o, 3)));
    QVERIFY(info(o, 5).contains(R"("best_metric_last": 0.7,)"));
    QCOMPARE(ckpt.epochBest(), 4);
    QCOMPARE(ckpt.bestMetricLast(), 0.7);
}

void tst_CandleCheckpoint::intervalAndSkipInPractice()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 7);
    o.saveBest = false;
    o.saveInterval = 2;
    o.skipEpochs = 3;
    CandleCheckpoint ckpt(o);
    QVERIFY(ckpt.initialize().ok());
    runEpochs(ckpt, 1, {0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3});
    QCOMPARE(epochDirs(o), (QStringList{"004", "006", "007"}));
    QVERIFY(!QFileInfo(QString::fromStdString((o.root / "best").string())).isSymLink());
    QVERIFY(!text(o.logPath).contains("metrics:")); // save_best off: no metric tracking
}

void tst_CandleCheckpoint::infinityBehaviour_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<bool>("saveBest");
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expectedBest");
    QTest::addColumn<bool>("bestLink");
    QTest::newRow("val_loss improves") << "val_loss" << true << 0.25 << "0.25" << true;
    QTest::newRow("save_best off") << "val_loss" << false << 0.25 << "Infinity" << false;
    QTest::newRow("maximised metric never beats +inf")
        << "val_accuracy" << true << 0.9 << "Infinity" << false;
    QTest::newRow("NaN never improves")
        << "val_loss" << true << std::nan("") << "Infinity" << false;
}

void tst_CandleCheckpoint::infinityBehaviour()
{
    QFETCH(QString, metric);
    QFETCH(bool, saveBest);
    QFETCH(double, value);
    QFETCH(QString, expectedBest);
    QFETCH(bool, bestLink);
    QTemporaryDir dir;
    auto o = optionsIn(dir, 2);
    o.saveBest = saveBest;
    o.saveBestMetric = metric.toStdString();
    CandleCheckpoint ckpt(o);
    QVERIFY(ckpt.initialize().ok());
    runEpochs(ckpt, 1, {value, value}, metric.toStdString());
    QCOMPARE(epochDirs(o), (QStringList{"001", "002"}));
    for (int e : {1, 2})
        QVERIFY2(info(o, e).contains("\"best_metric_last\": " + expectedBest + ","),
                 qPrintable(info(o, e)));
    QCOMPARE(info(o, 1).contains(saveBest ? "\"save_best_metric\": \"" + metric + "\""
                                          : QString("\"save_best_metric\": null")),
             true);
    QCOMPARE(QFileInfo(QString::fromStdString((o.root / "best").string())).isSymLink(), bestLink);
}

void tst_CandleCheckpoint::checksumIsZlibCrc32()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 1);
    o.checksum = true;
    CandleCheckpoint ckpt(o);
    QVERIFY(ckpt.initialize().ok());
    runEpochs(ckpt, 1, {0.5});
    QFile model(QString::fromStdString((o.root / "epochs/001/model.h5").string()));
    QVERIFY(model.open(QIODevice::ReadOnly));
    const QByteArray bytes = model.readAll();
    const uLong crc = crc32(0L, reinterpret_cast<const Bytef*>(bytes.constData()),
                            static_cast<uInt>(bytes.size()));
    QVERIFY2(info(o, 1).contains(QString(R"("checksum": "%1",)").arg(crc)), qPrintable(info(o, 1)));
    QVERIFY(text(o.logPath).contains("checksummed: "));
}

void tst_CandleCheckpoint::pruneKeepsNewestBestAndLimit()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 6);
    o.keepLimit = 1;
    CandleCheckpoint ckpt(o);
    QVERIFY(ckpt.initialize().ok());
    runEpochs(ckpt, 1, {0.9, 0.5, 0.6, 0.7, 0.8, 0.85});
    // CANDLE's clean(): the newest keep_limit epochs (6), plus best (2) outside that window.
    QCOMPARE(epochDirs(o), (QStringList{"002", "006"}));
    QCOMPARE(ckpt.epochsWritten(), (std::vector<int>{2, 6}));
    const QString log = text(o.logPath);
    QVERIFY(log.contains("removing: '"));
    QVERIFY(log.contains("epochs/003'"));
}

void tst_CandleCheckpoint::pruneNeverTouchesEarlierRuns()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 6);
    o.restartMode = RestartMode::Off;
    o.keepLimit = 1;
    for (const char* e : {"001", "002", "003"})
        QVERIFY(QDir().mkpath(QString::fromStdString((o.root / "epochs" / e).string())));
    CandleCheckpoint ckpt(o);
    QVERIFY(ckpt.initialize().ok());
    runEpochs(ckpt, 4, {0.9, 0.8, 0.7});
    QCOMPARE(epochDirs(o), (QStringList{"001", "002", "003", "006"}));
}

void tst_CandleCheckpoint::logLines()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 4);
    o.keepLimit = 1;
    CandleCheckpoint ckpt(o);
    QVERIFY(ckpt.initialize().ok());
    runEpochs(ckpt, 1, {0.7, 0.6, 0.65, 0.66});
    QVERIFY(ckpt.reportFinal().ok());
    const QStringList lines = text(o.logPath).split('\n', Qt::SkipEmptyParts);
    static const QRegularExpression prefix(
        R"(^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} CandleCheckpoint: (.*)$)");
    QStringList messages;
    for (const QString& l : lines) {
        const auto m = prefix.match(l);
        QVERIFY2(m.hasMatch(), qPrintable(l));
        messages << m.captured(1);
    }
    QCOMPARE(messages.first(), QString("Callback initialized."));
    QVERIFY(messages.contains("metrics: val_loss: current=0.700000 < last=inf"));
    QVERIFY(messages.contains("metrics: val_loss: current=0.600000 < last=0.700000"));
    QVERIFY(messages.contains("metrics: val_loss: current=0.650000 > last=0.600000"));
    QVERIFY(messages.contains("writing final epoch 4 ..."));
    static const QRegularExpression wrote(
        R"(^model wrote: \d+\.\d{3} MB in \d+\.\d{3} seconds \(\d+\.\d{2} MB/s\)\.$)");
    int wroteLines = 0, writing = 0, renames = 0, links = 0, removes = 0;
    for (const QString& m : messages) {
        wroteLines += wrote.match(m).hasMatch();
        writing += m.startsWith("writing model to: '") && m.endsWith("work/model.h5'");
        renames += m.startsWith("rename:  '") && m.contains("work' -> '");
        links += m.startsWith("linking: '");
        removes += m.startsWith("removing: '");
    }
    QCOMPARE(wroteLines, 4);
    QCOMPARE(writing, 4);
    QCOMPARE(renames, 4);
    QCOMPARE(links, 2 + 4); // best twice (epochs 1, 2), last four times
    // Epoch 3 removes 1 (keeps newest 3 and best 2); epoch 4 removes 3 (keeps 4 and best 2).
    QCOMPARE(removes, 2);
    QCOMPARE(messages.last(), QString("checkpoints list: [2, 4]"));
}

void tst_CandleCheckpoint::unknownMetricIsAnError()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 3);
    o.saveBestMetric = "val_mae";
    CandleCheckpoint ckpt(o);
    auto r = ckpt.onEpochEnd(1, {{"val_mae", 0.1}}, saverFor(1));
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.find("val_mae") != std::string::npos);
    o.saveBestMetric = "val_loss";
    CandleCheckpoint missing(o);
    auto r2 = missing.onEpochEnd(1, {{"loss", 0.1}}, saverFor(1));
    QVERIFY(!r2.ok());
    QVERIFY(r2.error().message.find("not in list of model metrics: loss") != std::string::npos);
}

void tst_CandleCheckpoint::restartOffAndAutoFresh()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 3);
    {
        CandleCheckpoint fresh(o);
        auto r = fresh.restart();
        QVERIFY(r.ok());
        QVERIFY(!r->has_value()); // auto, nothing there: start fresh
        runEpochs(fresh, 1, {0.5, 0.4});
    }
    o.restartMode = RestartMode::Off;
    CandleCheckpoint off(o);
    auto r = off.restart();
    QVERIFY(r.ok());
    QVERIFY(!r->has_value());
}

void tst_CandleCheckpoint::restartAutoResumes()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 6);
    {
        CandleCheckpoint first(o);
        QVERIFY(first.initialize().ok());
        runEpochs(first, 1, {0.5, 0.4, 0.45});
    }
    CandleCheckpoint second(o);
    QVERIFY(second.initialize().ok());
    auto r = second.restart();
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
    QVERIFY(r->has_value());
    QCOMPARE((*r)->epoch, 3);
    QCOMPARE(second.bestMetricLast(), 0.4);
    QCOMPARE(QString::fromStdString((*r)->epochDir.filename().string()), QString("003"));
    QVERIFY(text(o.logPath).contains(
        QRegularExpression(R"(,\d{3} CANDLE restart\(\): restarting from epoch: 3\n)")));
    // Resumed: 0.42 is not better than the restored 0.4.
    runEpochs(second, 4, {0.42});
    QVERIFY(info(o, 4).contains(R"("best_metric_last": 0.4,)"));
    QVERIFY(info(o, 4).contains(R"("time_elapsed": "__FIRST__")"));
}

void tst_CandleCheckpoint::restartRequiredMissingFails()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 3);
    o.restartMode = RestartMode::Required;
    CandleCheckpoint ckpt(o);
    auto r = ckpt.restart();
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.find("required") != std::string::npos);
    QVERIFY(r.error().message.find("last/model.h5") != std::string::npos);
}

void tst_CandleCheckpoint::restartChecksumMismatchFails()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 3);
    o.checksum = true;
    {
        CandleCheckpoint first(o);
        runEpochs(first, 1, {0.5, 0.4});
    }
    {
        CandleCheckpoint good(o);
        auto r = good.restart();
        QVERIFY(r.ok() && r->has_value());
    }
    QVERIFY(writeFileAtomically(o.root / "epochs/002/model.h5", "tampered").ok());
    CandleCheckpoint bad(o);
    auto r = bad.restart();
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.find("checksum mismatch") != std::string::npos);
}

void tst_CandleCheckpoint::restartDisabledChecksumFailsUnderChecksum()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 3);
    {
        CandleCheckpoint first(o); // checksum off: "__DISABLED__"
        runEpochs(first, 1, {0.5});
    }
    QVERIFY(info(o, 1).contains(R"("checksum": "__DISABLED__")"));
    o.checksum = true;
    CandleCheckpoint strict(o);
    auto r = strict.restart();
    QVERIFY(!r.ok());
    QVERIFY(r.error().message.find("__DISABLED__") != std::string::npos);
    o.checksum = false;
    CandleCheckpoint lax(o);
    auto r2 = lax.restart();
    QVERIFY(r2.ok() && r2->has_value());
}

void tst_CandleCheckpoint::restartAfterRollbackOverwritesLaterEpochs()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 4);
    {
        CandleCheckpoint first(o);
        runEpochs(first, 1, {0.5, 0.4, 0.3, 0.2});
    }
    // Roll back: re-point last at epoch 2.
    QVERIFY(replaceSymlink(o.root / "last", fs::canonical(o.root / "epochs/002")).ok());
    CandleCheckpoint again(o);
    auto r = again.restart();
    QVERIFY(r.ok() && r->has_value());
    QCOMPARE((*r)->epoch, 2);
    QCOMPARE(again.bestMetricLast(), 0.4);
    runEpochs(again, 3, {0.35});
    QVERIFY(text(o.logPath).contains("remove:  '"));
    QVERIFY(info(o, 3).contains(R"("best_metric_last": 0.35,)"));
    QVERIFY(info(o, 3).contains(R"("time_elapsed": "__FIRST__")"));
    QCOMPARE(linkTarget(o, "last"),
             QString::fromStdString(fs::canonical(o.root).string()) + "/epochs/003");
}

void tst_CandleCheckpoint::timestampLastMakesFirstSaveTimed()
{
    QTemporaryDir dir;
    auto o = optionsIn(dir, 1);
    o.timestampLast = "2000-01-01 00:00:00"; // ckpt_timestamp_last: not this process's first save
    CandleCheckpoint ckpt(o);
    runEpochs(ckpt, 1, {0.5});
    static const QRegularExpression elapsed(R"("time_elapsed": (\d+\.\d+),)");
    const auto m = elapsed.match(info(o, 1));
    QVERIFY2(m.hasMatch(), qPrintable(info(o, 1)));
    QVERIFY(m.captured(1).toDouble() > 8e8); // more than 25 years
}

void tst_CandleCheckpoint::optionsFromParams()
{
    HyperParams p;
    p.set("epochs", HyperValue::fromInt(7), HyperParams::Source::ConfigFile);
    p.set("ckpt_restart_mode", HyperValue::fromString("required"),
          HyperParams::Source::CommandLine);
    p.set("ckpt_checksum", HyperValue::fromString("yes"), HyperParams::Source::CommandLine);
    p.set("ckpt_save_interval", HyperValue::fromInt(0), HyperParams::Source::ConfigFile);
    p.set("ckpt_keep_limit", HyperValue::fromString("3"), HyperParams::Source::CommandLine);
    p.set("ckpt_best_metric_last", HyperValue::fromDouble(0.5), HyperParams::Source::ConfigFile);
    p.set("metadata", HyperValue::fromString("job 1"), HyperParams::Source::ConfigFile);
    auto o = CandleCheckpointOptions::fromParams(p, "/tmp/out");
    QVERIFY2(o.ok(), o.ok() ? "" : o.error().message.c_str());
    QCOMPARE(o->epochs, 7);
    QVERIFY(o->restartMode == RestartMode::Required);
    QVERIFY(o->checksum);
    QCOMPARE(o->saveInterval, 0);
    QCOMPARE(o->keepLimit, 3);
    QCOMPARE(o->bestMetricLast.value_or(0), 0.5);
    QCOMPARE(o->metadata.value_or(""), std::string("job 1"));
    QCOMPARE(o->root, fs::path("/tmp/out/ckpts"));
    QCOMPARE(o->logPath, fs::path("/tmp/out/ckpts/ckpt.log"));
    QCOMPARE(o->saveBestMetric, std::string("val_loss"));

    p.set("ckpt_layout", HyperValue::fromString("save"), HyperParams::Source::CommandLine);
    auto old = CandleCheckpointOptions::fromParams(p, "/tmp/out");
    QVERIFY(old.ok());
    QCOMPARE(old->root, fs::path("/tmp/out/save/ckpts"));
    QCOMPARE(old->logPath, fs::path("/tmp/out/save/ckpt.log"));

    p.set("ckpt_restart_mode", HyperValue::fromString("sometimes"),
          HyperParams::Source::CommandLine);
    auto bad = CandleCheckpointOptions::fromParams(p, "/tmp/out");
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().message.find("ckpt_restart_mode") != std::string::npos);

    HyperParams none;
    QVERIFY(!CandleCheckpointOptions::fromParams(none, "/tmp").ok()); // epochs is required
    HyperParams negative;
    negative.set("epochs", HyperValue::fromInt(3), HyperParams::Source::Default);
    negative.set("ckpt_keep_limit", HyperValue::fromInt(0), HyperParams::Source::CommandLine);
    auto neg = CandleCheckpointOptions::fromParams(negative, "/tmp");
    QVERIFY(!neg.ok());
    QVERIFY(neg.error().message.find("ckpt_keep_limit") != std::string::npos);
}

QTEST_GUILESS_MAIN(tst_CandleCheckpoint)
#include "tst_CandleCheckpoint.moc"
