// Every layer that works on runs, driven against the MindSpore and Caffe2
// layouts (file epochs): the layers ask the layout, never its name.
#include "checksum/Verifier.h"
#include "layout/Layout.h"
#include "models/EpochTableModel.h"
#include "ops/Relinker.h"
#include "report/RunJson.h"
#include "scan/Scanner.h"
#include "watch/RunWatcher.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <ProtobufFixture.h>
#include <filesystem>

using namespace ckpt;
using test::C2Blob;
using test::ProtobufFixture;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kNodes = {"trainer_0", "trainer_1"};

void saveMindSpore(const fs::path& root, int epoch)
{
    ProtobufFixture::write(root / ("net-" + std::to_string(epoch) + "_10.ckpt"),
                           ProtobufFixture::mindspore(ProtobufFixture::network(epoch, 10), true),
                           true);
}

void saveCaffe2(const fs::path& root, const std::string& node, int epoch)
{
    ProtobufFixture::write(
        root / (node + "." + std::to_string(epoch)),
        ProtobufFixture::minidb({C2Blob{"w", {1}, {float(epoch)}, {}, -1, -1, {}, 0, {}}}));
}

// A run of three saved epochs.
fs::path makeRun(const std::string& layout, const fs::path& root)
{
    for (int e = 1; e <= 3; ++e) {
        if (layout == "mindspore")
            saveMindSpore(root, e);
        else
            for (const auto& node : kNodes)
                saveCaffe2(root, node, e);
    }
    return root;
}

void bothLayouts()
{
    QTest::addColumn<QString>("layout");
    QTest::newRow("mindspore") << "mindspore";
    QTest::newRow("caffe2") << "caffe2";
}

} // namespace

class tst_ProtobufSeam : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void mixedTreeScanJson()
    {
        QTemporaryDir tmp;
        const fs::path base(tmp.path().toStdString());
        makeRun("mindspore", base / "exp" / "a");
        makeRun("caffe2", base / "exp" / "b");
        auto result = Scanner::scan(base);
        QVERIFY(result.ok());
        QCOMPARE(result->runs.size(), std::size_t(2));
        const auto j = RunJson::toJson(*result);
        QCOMPARE(j["runs"][0]["layout"].get<std::string>(), std::string("mindspore"));
        QCOMPARE(j["runs"][1]["layout"].get<std::string>(), std::string("caffe2"));
        QCOMPARE(j["runs"][0]["epochs"].size(), std::size_t(3));
        QCOMPARE(j["runs"][1]["epochs"].size(), std::size_t(3));
    }

    void history_data() { bothLayouts(); }
    void history()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path root = makeRun(layout.toStdString(), fs::path(tmp.path().toStdString()));
        const Run run = findLayout(layout.toStdString())->loadRun(root);
        // No metrics in either format: the history is empty, not an error.
        const MetricHistory h = historyOf(run);
        QVERIFY(h.latestPerEpoch().size() <= 3);
    }

    void verify_data() { bothLayouts(); }
    void verify()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path root = makeRun(layout.toStdString(), fs::path(tmp.path().toStdString()));
        const Run run = findLayout(layout.toStdString())->loadRun(root);
        auto report = Verifier::verifyRun(run, Verifier::Options{});
        QVERIFY(report.ok());
        QCOMPARE(report->runs[0].epochs.size(), std::size_t(3));
        const VerifyStatus want =
            layout == "mindspore" ? VerifyStatus::Ok : VerifyStatus::NoChecksum;
        for (const auto& v : report->runs[0].epochs)
            QCOMPARE(int(v.status), int(want));
    }

    void relinkRefuses_data() { bothLayouts(); }
    void relinkRefuses()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path root = makeRun(layout.toStdString(), fs::path(tmp.path().toStdString()));
        RelinkOptions options;
        options.actor = "tester@host";
        auto out = Relinker::relink(root, "last", 2, options);
        QVERIFY(!out.ok());
        QVERIFY(!fs::exists(root / "last"));
    }

    void tableModel_data() { bothLayouts(); }
    void tableModel()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path root = makeRun(layout.toStdString(), fs::path(tmp.path().toStdString()));
        const Run run = findLayout(layout.toStdString())->loadRun(root);
        EpochTableModel model;
        QAbstractItemModelTester tester(&model);
        model.setRuns({&run}, {QStringLiteral("r")});
        model.setHistory(QString::fromStdString(run.root), historyOf(run));
        QCOMPARE(model.rowCount(), 3);
        using K = EpochTableModel::ColumnKind;
        QCOMPARE(model.index(1, model.columnOf(K::Epoch)).data().toInt(), 2);
        QVERIFY(!model.index(1, model.columnOf(K::SavedAt)).data().toString().isEmpty());
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
        watcher.addFolder(QString::fromStdString(drop.string()));
        QCOMPARE(watcher.runs().size(), std::size_t(1));
        QCOMPARE(watcher.runs()[0].layout, layout.toStdString());
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        QSignalSpy live(&watcher, &RunWatcher::saveInProgress);
        if (layout == "mindspore") {
            // Written as .tmp (in progress, never an epoch), then renamed.
            const fs::path tmpFile = root / "net-4_10.tmp";
            ProtobufFixture::write(
                tmpFile, ProtobufFixture::mindspore(ProtobufFixture::network(4, 10), true));
            QTRY_COMPARE_WITH_TIMEOUT(live.count(), 1, 1000);
            QCOMPARE(live.at(0).at(1).toBool(), true);
            QCOMPARE(added.count(), 0);
            fs::rename(tmpFile, root / "net-4_10.ckpt");
        } else {
            // One node's db: epoch 4 is not finished until the other's arrives.
            saveCaffe2(root, kNodes[0], 4);
            QTRY_COMPARE_WITH_TIMEOUT(live.count(), 1, 1000);
            QCOMPARE(added.count(), 0);
            saveCaffe2(root, kNodes[1], 4);
        }
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, 1000);
        const Epoch e = added.at(0).at(1).value<Epoch>();
        QCOMPARE(e.number, 4);
        QTRY_COMPARE_WITH_TIMEOUT(live.count(), 2, 1000);
        QCOMPARE(live.at(1).at(1).toBool(), false);
        QCOMPARE(watcher.run(QString::fromStdString(root.string()))->epochs.size(), std::size_t(4));
        QTest::qWait(200);
        QCOMPARE(added.count(), 1);
    }
};

QTEST_GUILESS_MAIN(tst_ProtobufSeam)
#include "tst_ProtobufSeam.moc"
