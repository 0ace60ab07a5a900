// Epochs that record no checksum (a Lightning or Caffe2 run, a MindSpore file
// without its crc_num trailer, a CANDLE ckpt-info.json without "checksum") say
// so everywhere: the verifier, the epoch table, the run summary, scan JSON.
// Never "not verified", which would promise a verification that cannot happen.
#include "checksum/Verifier.h"
#include "layout/Layout.h"
#include "models/EpochTableModel.h"
#include "models/ModelRoles.h"
#include "report/RunJson.h"
#include "scan/Scanner.h"

#include <QAbstractItemModelTester>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <CandleFixture.h>
#include <LightningFixture.h>
#include <ProtobufFixture.h>
#include <filesystem>

using namespace ckpt;
using test::CandleFixture;
using test::LightningFixture;
using test::ProtobufFixture;
namespace fs = std::filesystem;

namespace {

// Two epochs: 1 records a checksum where the layout can, 2 never does.
void makeRun(const QString& kind, const fs::path& root)
{
    if (kind == "candle") {
        CandleFixture f(root);
        f.addEpoch(1, 0.5);
        f.writeModel(2, "model bytes");
        f.writeInfo(2, "{\"epoch\": 2, \"model_file\": \"model.h5\", \"timestamp\": "
                       "\"2026-11-22 13:00:02\"}");
    } else if (kind == "mindspore") {
        const auto bytes = ProtobufFixture::mindspore(ProtobufFixture::network(1, 10), true);
        ProtobufFixture::write(root / "net-1_10.ckpt", bytes);
        const auto bare = ProtobufFixture::mindspore(ProtobufFixture::network(2, 10), false);
        ProtobufFixture::write(root / "net-2_10.ckpt", bare);
    } else if (kind == "lightning") {
        LightningFixture f(root);
        f.addCheckpoint(0, 10);
        f.addCheckpoint(1, 20);
    } else {
        for (int e = 1; e <= 2; ++e)
            ProtobufFixture::write(
                root / ("trainer_0." + std::to_string(e)),
                ProtobufFixture::minidb({{"w", {1}, {float(e)}, {}, -1, -1, {}, 0, {}}}));
    }
}

} // namespace

class tst_NoChecksum : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void everyLayer_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<bool>("firstHasChecksum");
        QTest::newRow("candle (epoch 2 without the key)") << "candle" << true;
        QTest::newRow("mindspore (epoch 2 without trailer)") << "mindspore" << true;
        QTest::newRow("lightning (records none)") << "lightning" << false;
        QTest::newRow("caffe2 (records none)") << "caffe2" << false;
    }
    void everyLayer()
    {
        QFETCH(QString, kind);
        QFETCH(bool, firstHasChecksum);
        QTemporaryDir tmp;
        const fs::path root(tmp.path().toStdString());
        makeRun(kind, root);
        auto scanned = Scanner::scan(root);
        QVERIFY(scanned.ok());
        QCOMPARE(scanned->runs.size(), std::size_t(1));
        const Run& run = scanned->runs.front();
        QCOMPARE(QString::fromStdString(run.layout), kind);
        QCOMPARE(run.epochs.size(), std::size_t(2));

        // The verifier and the cheap question agree, epoch by epoch.
        auto report = Verifier::verifyRun(run, Verifier::Options{});
        QVERIFY(report.ok());
        for (std::size_t i = 0; i < 2; ++i) {
            const bool none = !(i == 0 && firstHasChecksum);
            QCOMPARE(Verifier::recordsNoChecksum(run, run.epochs[i]), none);
            const EpochVerdict& v = report->runs[0].epochs[i];
            QCOMPARE(v.status == VerifyStatus::NoChecksum, none);
            if (none)
                QVERIFY2(v.message.find("no checksum") != std::string::npos, v.message.c_str());
            else
                QCOMPARE(int(v.status), int(VerifyStatus::Ok));
        }

        // Scan JSON: algo "none", not a missing record.
        const auto first = RunJson::toJson(run, run.epochs[0]);
        const auto second = RunJson::toJson(run, run.epochs[1]);
        QCOMPARE(second["checksum"]["algo"].get<std::string>(), std::string("none"));
        QVERIFY(second["checksum"]["expected"].is_null());
        QCOMPARE(first["checksum"]["algo"].get<std::string>(),
                 std::string(firstHasChecksum ? "crc32" : "none"));
        if (firstHasChecksum)
            QVERIFY(!first["checksum"]["expected"].get<std::string>().empty());

        // The epoch table: a grey "no checksum" badge, kept when a cancelled
        // verification hands the epochs back as unknown.
        EpochTableModel model;
        QAbstractItemModelTester tester(&model);
        const QString qroot = QString::fromStdString(run.root);
        model.setRuns({&run}, {QStringLiteral("r")});
        const int col = model.columnOf(EpochTableModel::ColumnKind::Checksum);
        auto stateAt = [&](int row) {
            return static_cast<ChecksumState>(
                model.index(row, col).data(roles::ChecksumStateRole).toInt());
        };
        QCOMPARE(model.index(1, col).data().toString(), QStringLiteral("no checksum"));
        QCOMPARE(stateAt(1), ChecksumState::NoChecksum);
        QVERIFY(model.index(1, col).data(Qt::ToolTipRole).toString().contains("no checksum"));
        QCOMPARE(model.index(0, col).data().toString(),
                 firstHasChecksum ? QStringLiteral("not verified") : QStringLiteral("no checksum"));
        model.setChecksumStates(qroot, {{run.epochs[1].number, ChecksumState::Unknown}}, {});
        QCOMPARE(stateAt(1), ChecksumState::NoChecksum);
        if (firstHasChecksum) {
            model.setChecksumStates(qroot, {{run.epochs[0].number, ChecksumState::Ok}}, {});
            QCOMPARE(model.index(0, col).data().toString(), QStringLiteral("ok"));
        }
    }

    void runSummary_data()
    {
        QTest::addColumn<int>("a");
        QTest::addColumn<int>("b");
        QTest::addColumn<int>("want");
        using S = ChecksumState;
        auto row = [](const char* name, S a, S b, S want) {
            QTest::newRow(name) << int(a) << int(b) << int(want);
        };
        row("none + none", S::NoChecksum, S::NoChecksum, S::NoChecksum);
        row("ok + none: all that can be checked is ok", S::Ok, S::NoChecksum, S::Ok);
        row("none + unknown: something can still be checked", S::NoChecksum, S::Unknown,
            S::Unknown);
        row("unknown + none", S::Unknown, S::NoChecksum, S::Unknown);
        row("none + mismatch", S::NoChecksum, S::Mismatch, S::Mismatch);
        row("disabled + none", S::Disabled, S::NoChecksum, S::Disabled);
    }
    void runSummary()
    {
        QFETCH(int, a);
        QFETCH(int, b);
        QFETCH(int, want);
        QCOMPARE(int(combineChecksumStates(ChecksumState(a), ChecksumState(b))), want);
        QCOMPARE(checksumStateLabel(ChecksumState::NoChecksum), QStringLiteral("no checksum"));
    }
};

QTEST_GUILESS_MAIN(tst_NoChecksum)
#include "tst_NoChecksum.moc"
