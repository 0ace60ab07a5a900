// Every layer that works on runs, driven against Keras and Synalinks runs as
// tests/orbax/tst_LayoutSeam.cpp does for CANDLE and Orbax: the layers ask the
// layout (history, checksums, links, prune, table, watch), never its name.
#include "KerasFixture.h"
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

#include <filesystem>

using namespace ckpt;
using test::KerasFixture;
namespace fs = std::filesystem;

namespace {

std::string fileName(const std::string& layout, int epoch, double metric)
{
    char buf[64];
    if (layout == "synalinks")
        std::snprintf(buf, sizeof buf, "%02d-%.2f.variables.json", epoch, metric);
    else
        std::snprintf(buf, sizeof buf, "weights.%02d-%.2f.h5", epoch, metric);
    return buf;
}

void save(const std::string& layout, const fs::path& root, int epoch, double metric)
{
    const fs::path f = root / fileName(layout, epoch, metric);
    if (layout == "synalinks")
        KerasFixture::variables(f, metric, {double(epoch), 2, 3, 4});
    else
        KerasFixture::h5(f, epoch);
}

// Four saved epochs with a falling metric: 1, 1/2, 1/4, 1/8.
fs::path makeRun(const std::string& layout, const fs::path& root)
{
    fs::create_directories(root);
    for (int i = 1; i <= 4; ++i)
        save(layout, root, i, 1.0 / double(1 << (i - 1)));
    return root;
}

std::string metricOf(const std::string& layout)
{
    return layout == "synalinks" ? "val_reward" : "val_loss";
}

void bothLayouts()
{
    QTest::addColumn<QString>("layout");
    QTest::newRow("keras") << "keras";
    QTest::newRow("synalinks") << "synalinks";
}

} // namespace

class tst_KerasSeam : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void scanJson_data() { bothLayouts(); }
    void scanJson()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path base(tmp.path().toStdString());
        makeRun(layout.toStdString(), base / "exp" / "r");
        auto result = Scanner::scan(base);
        QVERIFY(result.ok());
        QCOMPARE(result->runs.size(), std::size_t(1));
        const auto j = RunJson::toJson(result->runs[0]);
        QCOMPARE(j["layout"].get<std::string>(), layout.toStdString());
        QCOMPARE(j["epochs"].size(), std::size_t(4));
        QCOMPARE(j["epochs"][1]["metrics"][metricOf(layout.toStdString())].get<double>(), 0.5);
        QVERIFY(!j.contains("last"));
    }

    void history_data() { bothLayouts(); }
    void history()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path root =
            makeRun(layout.toStdString(), fs::path(tmp.path().toStdString()) / "r");
        const Run run = findLayout(layout.toStdString())->loadRun(root);
        // latestPerEpoch() points into the history: keep it alive.
        const MetricHistory history = historyOf(run);
        const auto rows = history.latestPerEpoch();
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(rows[1]->epoch, 2);
        QCOMPARE(rows[1]->value(metricOf(layout.toStdString())), std::optional<double>(0.5));
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
        for (const auto& v : report->runs[0].epochs)
            QCOMPARE(int(v.status), int(VerifyStatus::NoChecksum));
    }

    void relinkAndPruneRefuse_data() { bothLayouts(); }
    void relinkAndPruneRefuse()
    {
        QFETCH(QString, layout);
        QTemporaryDir tmp;
        const fs::path root =
            makeRun(layout.toStdString(), fs::path(tmp.path().toStdString()) / "r");
        RelinkOptions options;
        options.actor = "tester@host";
        auto out = Relinker::relink(root, "last", 2, options);
        QVERIFY(!out.ok());
        QVERIFY2(QString::fromStdString(out.error().message).contains("no movable links"),
                 out.error().message.c_str());
        const Run run = findLayout(layout.toStdString())->loadRun(root);
        KeepPolicy policy;
        policy.keepLimit = 1;
        const PrunePlan plan = Pruner::plan(run, policy);
        // Epochs are files in the user's folder: never planned for deletion.
        QVERIFY(plan.toDelete.empty());
        QVERIFY(!plan.notes.empty());
        QCOMPARE(findLayout(layout.toStdString())->loadRun(root).epochs.size(), std::size_t(4));
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
        QCOMPARE(model.index(1, model.columnOf(K::Epoch)).data().toInt(), 2);
        QVERIFY(!model.index(1, model.columnOf(K::SavedAt)).data().toString().isEmpty());
        QVERIFY(
            model.metricNames().contains(QString::fromStdString(metricOf(layout.toStdString()))));
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
        // Written aside and moved in: whole the moment it appears.
        QTemporaryDir staging;
        const fs::path aside(staging.path().toStdString());
        save(layout.toStdString(), aside, 5, 0.0625);
        fs::rename(aside / fileName(layout.toStdString(), 5, 0.0625),
                   root / fileName(layout.toStdString(), 5, 0.0625));
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, 1000);
        const Epoch e = added.at(0).at(1).value<Epoch>();
        QCOMPARE(e.number, 5);
        QVERIFY(e.hasRecord());
        QCOMPARE(e.metric(metricOf(layout.toStdString())), std::optional<double>(0.06));
        QTest::qWait(200);
        QCOMPARE(added.count(), 1);
    }

    void polledWatch()
    {
        // Network file systems: the same through lstat polling.
        QTemporaryDir tmp;
        const fs::path drop(tmp.path().toStdString());
        const fs::path root = makeRun("keras", drop / "r");
        RunWatcher::Options o;
        o.debounceMs = 10;
        o.rescanIntervalMs = 0;
        o.polling = true;
        o.pollIntervalMs = 50;
        RunWatcher watcher(o);
        watcher.addFolder(QString::fromStdString(drop.string()));
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        save("keras", root, 5, 0.0625);
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, 2000);
        QCOMPARE(added.at(0).at(1).value<Epoch>().number, 5);
    }
};

QTEST_GUILESS_MAIN(tst_KerasSeam)
#include "tst_KerasSeam.moc"
