#include "checksum/Verifier.h"
#include "scan/Scanner.h"

#include <QTemporaryDir>
#include <QTest>

#include <CandleFixture.h>
#include <UnprivilegedScope.h>
#include <atomic>
#include <filesystem>
#include <map>
#include <unistd.h>

using namespace ckpt;
using test::CandleFixture;
using test::UnprivilegedScope;
namespace fs = std::filesystem;

namespace {

// Until the CANDLE loader lands, runs are assembled by hand from what the
// fixture wrote: the same fields the loader fills.
Epoch handEpoch(const CandleFixture& fx, int number, std::size_t bytes)
{
    Epoch e;
    e.number = number;
    e.dir = fx.epochDir(number).string();
    e.recorded = true;
    EpochFile model;
    model.name = "model.h5";
    model.bytes = bytes;
    model.present = true;
    model.model = true;
    model.algo = ChecksumAlgo::Crc32;
    model.checksum =
        std::to_string(CandleFixture::crc32Of(CandleFixture::modelContent(number, bytes)));
    e.files.push_back(model);
    return e;
}

Run handRun(const fs::path& root, const std::vector<std::size_t>& sizes)
{
    CandleFixture fx(root);
    Run run;
    run.root = root.string();
    run.layout = "candle";
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const int number = static_cast<int>(i) + 1;
        fx.addEpoch(number, 0.5, sizes[i]);
        run.epochs.push_back(handEpoch(fx, number, sizes[i]));
    }
    return run;
}

Verifier::Options opts(int threads = 2, std::uint64_t split = std::uint64_t{64} << 20)
{
    Verifier::Options o;
    o.threads = threads;
    o.splitBytes = split;
    return o;
}

VerifyReport verified(const std::vector<Run>& runs, const Verifier::Options& o)
{
    auto report = Verifier::verifyRuns(runs, o);
    if (!report.ok())
        qFatal("verify failed: %s", report.error().message.c_str());
    return std::move(report.value());
}

// QCOMPARE cannot print the enum itself: compare its JSON name.
QString name(VerifyStatus status)
{
    const std::string_view text = toString(status);
    return QString::fromLatin1(text.data(), static_cast<qsizetype>(text.size()));
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

class tst_Verifier : public QObject
{
    Q_OBJECT

private slots:
    void okEpochs()
    {
        QTemporaryDir dir;
        const Run run = handRun(dir.filePath("ckpts").toStdString(), {64, 100000, 1});
        auto report = Verifier::verifyRun(run, opts());
        QVERIFY(report.ok());
        QCOMPARE(report->runs.size(), std::size_t{1});
        QCOMPARE(report->runs[0].root, run.root);
        const auto& epochs = report->runs[0].epochs;
        QCOMPARE(epochs.size(), std::size_t{3});
        for (std::size_t i = 0; i < epochs.size(); ++i) {
            QCOMPARE(epochs[i].epoch, static_cast<int>(i) + 1);
            QCOMPARE(name(epochs[i].status), name(VerifyStatus::Ok));
            QCOMPARE(epochs[i].actual, epochs[i].expected);
            QCOMPARE(epochs[i].bytes, *run.epochs[i].modelBytes());
            QCOMPARE(epochs[i].root, run.root);
            QVERIFY(epochs[i].message.empty());
        }
        QCOMPARE(report->totals.count(VerifyStatus::Ok), 3);
        QCOMPARE(report->totals.bytes, std::uint64_t{64 + 100000 + 1});
        QVERIFY(report->totals.clean());
    }

    void flippedByteIsMismatch()
    {
        QTemporaryDir dir;
        const Run run = handRun(dir.filePath("ckpts").toStdString(), {4096});
        std::string content = CandleFixture::modelContent(1, 4096);
        content[1234] = static_cast<char>(content[1234] ^ 0x01);
        CandleFixture::writeText(run.modelPath(run.epochs[0]), content);
        auto verdict = Verifier::verifyEpoch(run, run.epochs[0], opts());
        QVERIFY(verdict.ok());
        QCOMPARE(name(verdict->status), name(VerifyStatus::Mismatch));
        QCOMPARE(verdict->expected, run.epochs[0].files[0].checksum);
        QCOMPARE(verdict->actual, std::to_string(CandleFixture::crc32Of(content)));
        QVERIFY(verdict->actual != verdict->expected);
        QVERIFY(contains(verdict->message, run.modelPath(run.epochs[0])));
    }

    void recordedValueNotDecimalIsMismatch()
    {
        QTemporaryDir dir;
        Run run = handRun(dir.filePath("ckpts").toStdString(), {10});
        run.epochs[0].files[0].checksum = "0x1234";
        auto verdict = Verifier::verifyEpoch(run, run.epochs[0], opts());
        QVERIFY(verdict.ok());
        QCOMPARE(name(verdict->status), name(VerifyStatus::Mismatch));
        QVERIFY(contains(verdict->message, "not a decimal"));
    }

    void statusWithoutReading_data()
    {
        QTest::addColumn<QString>("change");
        QTest::addColumn<VerifyStatus>("status");
        QTest::newRow("disabled") << "disabled" << VerifyStatus::Disabled;
        QTest::newRow("no checksum key") << "nochecksum" << VerifyStatus::NoChecksum;
        QTest::newRow("no info") << "noinfo" << VerifyStatus::BadInfo;
        QTest::newRow("model deleted") << "deleted" << VerifyStatus::Missing;
        QTest::newRow("model deleted, no path") << "deletednopath" << VerifyStatus::Missing;
        QTest::newRow("model a directory") << "directory" << VerifyStatus::Error;
    }
    void statusWithoutReading()
    {
        QFETCH(QString, change);
        QFETCH(VerifyStatus, status);
        QTemporaryDir dir;
        Run run = handRun(dir.filePath("ckpts").toStdString(), {100});
        Epoch& e = run.epochs[0];
        const std::string modelPath = run.pathOf(e, e.files[0]);
        if (change == "disabled") {
            e.files[0].checksum = "__DISABLED__";
            e.files[0].algo = ChecksumAlgo::Disabled;
        } else if (change == "nochecksum") {
            e.files[0].checksum.clear();
            e.files[0].algo = ChecksumAlgo::None;
        } else if (change == "noinfo") {
            e.recorded = false;
            e.problems.push_back({ProblemKind::BadInfo, e.dir + "/ckpt-info.json: truncated at 1:7",
                                  e.dir + "/ckpt-info.json", 1});
        } else if (change == "deleted") {
            fs::remove(modelPath);
        } else if (change == "deletednopath") {
            fs::remove(modelPath);
            e.files[0].present = false;
            e.files[0].bytes = 0;
        } else if (change == "directory") {
            fs::remove(modelPath);
            fs::create_directory(modelPath);
        }
        auto report = Verifier::verifyRun(run, opts());
        QVERIFY(report.ok());
        const EpochVerdict& v = report->runs[0].epochs[0];
        QCOMPARE(name(v.status), name(status));
        QCOMPARE(v.bytes, std::uint64_t{0});
        QVERIFY(v.actual.empty());
        QVERIFY(!v.message.empty());
        QCOMPARE(report->totals.count(status), 1);
        QVERIFY(!report->totals.clean() || status == VerifyStatus::Disabled ||
                status == VerifyStatus::NoChecksum);
        if (status == VerifyStatus::Missing)
            QVERIFY(contains(v.message, (fs::path(e.dir) / "model.h5").string()));
        if (status == VerifyStatus::BadInfo)
            QVERIFY(contains(v.message, "truncated at 1:7"));
        if (status == VerifyStatus::Disabled)
            QCOMPARE(v.expected, std::string("__DISABLED__"));
    }

    void unreadableIsError()
    {
        QTemporaryDir dir;
        const Run run = handRun(dir.filePath("ckpts").toStdString(), {100});
        fs::permissions(run.modelPath(run.epochs[0]), fs::perms::none);
        UnprivilegedScope asUser(dir.path().toStdString());
        QVERIFY2(asUser.ok(), asUser.error().c_str());
        auto report = Verifier::verifyRun(run, opts());
        asUser.restore();
        fs::permissions(run.modelPath(run.epochs[0]), fs::perms::owner_all);
        QVERIFY(report.ok());
        const EpochVerdict& v = report->runs[0].epochs[0];
        QCOMPARE(name(v.status), name(VerifyStatus::Error));
        QVERIFY(contains(v.message, run.modelPath(run.epochs[0])));
        QVERIFY(contains(v.message, "Permission denied"));
    }

    void cancelStopsPromptly_data()
    {
        QTest::addColumn<int>("threads");
        QTest::newRow("serial") << 1;
        QTest::newRow("parallel") << 2;
    }
    void cancelStopsPromptly()
    {
        QFETCH(int, threads);
        QTemporaryDir dir;
        const std::size_t size = 4u << 20;
        const Run run =
            handRun(dir.filePath("ckpts").toStdString(), std::vector<std::size_t>(8, size));
        std::atomic_bool cancel{false};
        std::uint64_t doneAtCancel = 0;
        std::uint64_t lastDone = 0;
        Progress progress(
            [&](const ProgressUpdate& u) {
                lastDone = u.done;
                if (u.done > 0 && !cancel) {
                    doneAtCancel = u.done;
                    cancel = true;
                }
            },
            &cancel);
        auto o = opts(threads, 1u << 20);
        o.reader.blockBytes = 64u << 10;
        auto report = Verifier::verifyRun(run, o, progress);
        QVERIFY(!report.ok());
        QCOMPARE(report.error().message, std::string("cancelled"));
        QVERIFY(cancel.load());
        // Each worker finishes at most the block it was reading.
        QVERIFY2(lastDone <=
                     doneAtCancel + static_cast<std::uint64_t>(threads) * o.reader.blockBytes,
                 qPrintable(QString("%1 read after cancel").arg(lastDone - doneAtCancel)));
        QVERIFY(lastDone < 8 * size);
    }

    void progressAddsUp()
    {
        QTemporaryDir dir;
        const std::vector<std::size_t> sizes = {3u << 20, 10, (1u << 20) + 7, 0, 500000};
        Run run = handRun(dir.filePath("ckpts").toStdString(), sizes);
        run.epochs[1].files[0].checksum = "__DISABLED__";
        run.epochs[1].files[0].algo = ChecksumAlgo::Disabled; // not read: not in the total
        std::atomic_int inside{0};
        bool overlapped = false;
        std::vector<ProgressUpdate> updates;
        Progress progress([&](const ProgressUpdate& u) {
            if (inside.fetch_add(1) != 0)
                overlapped = true;
            updates.push_back(u);
            std::this_thread::sleep_for(std::chrono::microseconds(200));
            inside.fetch_sub(1);
        });
        auto o = opts(2, 1u << 20);
        o.reader.blockBytes = 64u << 10;
        auto report = Verifier::verifyRun(run, o, progress);
        QVERIFY(report.ok());
        QVERIFY(!overlapped);
        const std::uint64_t expectedTotal = sizes[0] + sizes[2] + sizes[3] + sizes[4];
        QVERIFY(updates.size() >= 2);
        for (std::size_t i = 0; i < updates.size(); ++i) {
            QCOMPARE(updates[i].unit, std::string("bytes"));
            QCOMPARE(updates[i].total, expectedTotal);
            if (i > 0)
                QVERIFY(updates[i].done >= updates[i - 1].done);
        }
        QCOMPARE(updates.front().done, std::uint64_t{0});
        QCOMPARE(updates.back().done, expectedTotal);
        QCOMPARE(report->totals.bytes, expectedTotal);
        QCOMPARE(report->totals.count(VerifyStatus::Ok), 4);
        QCOMPARE(report->totals.count(VerifyStatus::Disabled), 1);
    }

    void parallelEqualsSerial()
    {
        QTemporaryDir dir;
        std::vector<Run> runs;
        for (int r = 0; r < 3; ++r) {
            std::vector<std::size_t> sizes;
            for (int i = 0; i < 12; ++i)
                sizes.push_back(static_cast<std::size_t>((i * 7919 + r * 104729) % 700000));
            runs.push_back(
                handRun(dir.filePath(QString("run%1/ckpts").arg(r)).toStdString(), sizes));
        }
        // A mix of outcomes, so equal results are not just "all ok".
        std::string broken = CandleFixture::modelContent(3, *runs[0].epochs[2].modelBytes());
        broken.back() = static_cast<char>(broken.back() ^ 0x80);
        CandleFixture::writeText(runs[0].modelPath(runs[0].epochs[2]), broken);
        fs::remove(runs[1].modelPath(runs[1].epochs[5]));
        runs[2].epochs[7].files[0].checksum = "__DISABLED__";
        runs[2].epochs[7].files[0].algo = ChecksumAlgo::Disabled;

        const VerifyReport serial = verified(runs, opts(1, 0));
        const VerifyReport parallel = verified(runs, opts(4, 64u << 10));
        QCOMPARE(parallel.runs.size(), serial.runs.size());
        for (std::size_t r = 0; r < serial.runs.size(); ++r) {
            QCOMPARE(parallel.runs[r].root, serial.runs[r].root);
            QCOMPARE(parallel.runs[r].epochs.size(), serial.runs[r].epochs.size());
            for (std::size_t i = 0; i < serial.runs[r].epochs.size(); ++i) {
                const auto& a = serial.runs[r].epochs[i];
                const auto& b = parallel.runs[r].epochs[i];
                QCOMPARE(b.epoch, a.epoch);
                QCOMPARE(name(b.status), name(a.status));
                QCOMPARE(b.actual, a.actual);
                QCOMPARE(b.bytes, a.bytes);
            }
        }
        QVERIFY(serial.totals.counts == parallel.totals.counts);
        QCOMPARE(serial.totals.count(VerifyStatus::Mismatch), 1);
        QCOMPARE(serial.totals.count(VerifyStatus::Missing), 1);
        QCOMPARE(serial.totals.count(VerifyStatus::Disabled), 1);
        QCOMPARE(serial.totals.count(VerifyStatus::Ok), 33);
    }

    // One big file cut into parts joined by crc32_combine, under both strategies.
    void splitFileMatches_data()
    {
        QTest::addColumn<CrcReader::Strategy>("strategy");
        QTest::newRow("read") << CrcReader::Strategy::Read;
        QTest::newRow("mmap") << CrcReader::Strategy::Mmap;
    }
    void splitFileMatches()
    {
        QFETCH(CrcReader::Strategy, strategy);
        QTemporaryDir dir;
        const Run run = handRun(dir.filePath("ckpts").toStdString(), {(5u << 20) + 123});
        auto o = opts(2, 1u << 20);
        o.reader.strategy = strategy;
        auto verdict = Verifier::verifyEpoch(run, run.epochs[0], o);
        QVERIFY(verdict.ok());
        QCOMPARE(name(verdict->status), name(VerifyStatus::Ok));
        QCOMPARE(verdict->bytes, std::uint64_t{(5u << 20) + 123});
    }

    // The real loader end to end: runs found by Scanner::scan, files written with
    // real CRCs, one broken, one cleaned up, one disabled, one without checksum.
    void scannedRuns()
    {
        QTemporaryDir dir;
        const fs::path drop = dir.filePath("drop").toStdString();
        CandleFixture a(drop / "exp" / "run1" / "save" / "ckpts");
        CandleFixture b(drop / "Output" / "EXP000" / "RUN000" / "ckpts");
        for (int e = 1; e <= 4; ++e) {
            a.addEpoch(e, 1.0 / e, 3000 + e, e == 1);
            b.addEpoch(e, 1.0 / e, 5000 + e, e == 1);
        }
        std::string broken = CandleFixture::modelContent(2, 3002);
        broken[17] = static_cast<char>(broken[17] ^ 0x10);
        a.writeModel(2, broken);
        fs::remove(a.epochDir(3) / "model.h5");
        b.writeInfo(1,
                    "{\"epoch\": 1, \"model_file\": \"model.h5\", \"checksum\": \"__DISABLED__\"}");
        b.writeInfo(2, "{\"epoch\": 2, \"model_file\": \"model.h5\"}");
        b.writeInfo(3, "{\"epoch\": 3, \"model_fi");
        auto scanned = Scanner::scan(drop);
        QVERIFY2(scanned.ok(), scanned.ok() ? "" : scanned.error().message.c_str());
        QCOMPARE(scanned->runs.size(), std::size_t{2});
        const VerifyReport report = verified(scanned->runs, opts());
        QCOMPARE(report.runs.size(), std::size_t{2});
        std::map<std::string, std::vector<VerifyStatus>> byRoot;
        for (const auto& run : report.runs) {
            for (const auto& e : run.epochs)
                byRoot[run.root].push_back(e.status);
        }
        using S = VerifyStatus;
        const auto rootA = fs::path(a.root()).lexically_normal().string();
        const auto rootB = fs::path(b.root()).lexically_normal().string();
        QVERIFY(byRoot[rootA] == (std::vector<S>{S::Ok, S::Mismatch, S::Missing, S::Ok}));
        QVERIFY(byRoot[rootB] == (std::vector<S>{S::Disabled, S::NoChecksum, S::BadInfo, S::Ok}));
        QCOMPARE(report.totals.count(S::Ok), 3);
        QCOMPARE(report.totals.bytes, std::uint64_t{3001 + 3002 + 3004 + 5004});
    }

    void emptyInput()
    {
        auto report = Verifier::verifyRuns({}, opts());
        QVERIFY(report.ok());
        QVERIFY(report->runs.empty());
        QCOMPARE(report->totals.epochs(), 0);
    }
};

QTEST_GUILESS_MAIN(tst_Verifier)
#include "tst_Verifier.moc"
