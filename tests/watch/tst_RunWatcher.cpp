#include "candle/CandleLayout.h"
#include "watch/RunWatcher.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <CandleFixture.h>
#include <filesystem>
#include <fstream>

using namespace ckpt;
using test::CandleFixture;
namespace fs = std::filesystem;

namespace {

constexpr int kLimitMs = 1000; // end to end, event to signal

RunWatcher::Options watcherOptions(bool polling)
{
    RunWatcher::Options o;
    o.debounceMs = 50;
    o.rescanIntervalMs = 0; // the tests call rescanNow() themselves
    o.polling = polling;
    o.pollIntervalMs = 50;
    return o;
}

// A CANDLE save exactly as CANDLE does it: files into work/, work/ renamed to epochs/NNN.
void saveLikeCandle(const fs::path& root, int epoch, bool replace = false)
{
    const fs::path work = root / "work";
    const std::string model = CandleFixture::modelContent(epoch + 100, 256);
    CandleFixture::writeText(work / "model.h5", model);
    CandleFixture::writeText(
        work / "ckpt-info.json",
        "{\"epoch\": " + std::to_string(epoch) +
            ", \"save_best_metric\": \"val_loss\", \"best_metric_last\": 0.25, \"model_file\": "
            "\"model.h5\", \"checksum\": \"" +
            std::to_string(CandleFixture::crc32Of(model)) +
            "\", \"timestamp\": \"2026-11-22 14:00:00\", \"time_elapsed\": 0.5, \"metadata\": "
            "null}");
    CandleFixture fx(root);
    if (replace)
        fs::remove_all(fx.epochDir(epoch));
    fs::rename(work, fx.epochDir(epoch));
}

// Delivers every change made so far and handles it now: the inotify events the
// kernel queued when the files changed (read by the notifiers on the next event
// loop pass) or one polling pass, then the debounced batch. Afterwards the
// signals counted are all those changes will ever produce, so the tests count
// exactly instead of waiting a while for a duplicate that may come later.
void settle(RunWatcher& watcher, bool polling)
{
    if (polling)
        watcher.pollNow();
    else
        QCoreApplication::processEvents();
    watcher.flush();
}

} // namespace

class tst_RunWatcher : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    fs::path m_drop;
    fs::path m_root;

    void makeTree()
    {
        QVERIFY(m_tmp.isValid());
        const char* tag = QTest::currentDataTag();
        m_drop =
            fs::path(m_tmp.path().toStdString()) / QTest::currentTestFunction() / (tag ? tag : "");
        m_root = m_drop / "exp" / "run1" / "save" / "ckpts";
        CandleFixture fx(m_root);
        for (int e = 1; e <= 3; ++e)
            fx.addEpoch(e, 1.0 / e, 64, e == 1);
        fx.linkAbsolute("last", 3);
        fx.linkAbsolute("best", 3);
    }

    void addPollingColumn()
    {
        QTest::addColumn<bool>("polling");
        QTest::newRow("inotify") << false;
        QTest::newRow("polling") << true;
    }

private slots:
    void logWrittenOrReplacedIsReported_data() { addPollingColumn(); }
    void logWrittenOrReplacedIsReported()
    {
        // A trainer logs an epoch's metrics after its checkpoint, or a restart
        // rewrites its log: no epoch changes, the history must be read again.
        QFETCH(bool, polling);
        makeTree();
        const fs::path log = m_root / "ckpt.log";
        CandleFixture::writeText(log, "2026-11-22 14:00:00,000 CandleCheckpoint: epoch 3\n");
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_drop.string()));
        QSignalSpy changed(&watcher, &RunWatcher::sourcesChanged);

        {
            std::ofstream append(log, std::ios::app);
            append << "2026-11-22 14:00:01,000 CandleCheckpoint: more\n";
        }
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 1, kLimitMs);
        QCOMPARE(changed.at(0).at(0).toString().toStdString(), m_root.string());
        settle(watcher, polling);
        QCOMPARE(changed.count(), 1);

        CandleFixture::writeText(m_root / "ckpt.log.new", "rewritten\n");
        fs::rename(m_root / "ckpt.log.new", log);
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 2, kLimitMs);
        // Watched anew after the rename: the new file's writes are seen too.
        {
            std::ofstream append(log, std::ios::app);
            append << "epoch 4\n";
        }
        QTRY_COMPARE_WITH_TIMEOUT(changed.count(), 3, kLimitMs);

        // A save that leaves the logs alone is an epoch, not a log change.
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        saveLikeCandle(m_root, 4);
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, kLimitMs);
        settle(watcher, polling);
        QCOMPARE(changed.count(), 3);
    }

    void initialRunsAnnounced_data() { addPollingColumn(); }
    void initialRunsAnnounced()
    {
        QFETCH(bool, polling);
        makeTree();
        RunWatcher watcher(watcherOptions(polling));
        QSignalSpy added(&watcher, &RunWatcher::runAdded);
        watcher.addFolder(QString::fromStdString(m_drop.string()));
        QCOMPARE(added.count(), 1);
        const Run run = added.at(0).at(0).value<Run>();
        QCOMPARE(run.root, m_root.string());
        QCOMPARE(run.epochs.size(), std::size_t{3});
        QCOMPARE(watcher.runs().size(), std::size_t{1});
        QVERIFY(!watcher.isSaveInProgress(QString::fromStdString(m_root.string())));
    }

    void epochRenamedFromWork_data() { addPollingColumn(); }
    void epochRenamedFromWork()
    {
        QFETCH(bool, polling);
        makeTree();
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_drop.string()));
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        QSignalSpy live(&watcher, &RunWatcher::saveInProgress);
        QSignalSpy removed(&watcher, &RunWatcher::epochRemoved);

        fs::create_directories(m_root / "work");
        QTRY_COMPARE_WITH_TIMEOUT(live.count(), 1, kLimitMs);
        QCOMPARE(live.at(0).at(1).toBool(), true);
        QVERIFY(watcher.isSaveInProgress(QString::fromStdString(m_root.string())));
        QCOMPARE(added.count(), 0); // nothing in work/ counts as an epoch

        saveLikeCandle(m_root, 4);
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, kLimitMs);
        QTRY_COMPARE_WITH_TIMEOUT(live.count(), 2, kLimitMs);
        QCOMPARE(live.at(1).at(1).toBool(), false);
        QCOMPARE(added.at(0).at(0).toString().toStdString(), m_root.string());
        const Epoch epoch = added.at(0).at(1).value<Epoch>();
        QCOMPARE(epoch.number, 4);
        QVERIFY(epoch.hasRecord());
        QVERIFY(epoch.hasModel());
        // Once: later windows and polls must not announce it again.
        settle(watcher, polling);
        settle(watcher, polling);
        QCOMPARE(added.count(), 1);
        QCOMPARE(live.count(), 2);
        QCOMPARE(removed.count(), 0);
        const auto run = watcher.run(QString::fromStdString(m_root.string()));
        QVERIFY(run);
        QCOMPARE(run->epochs.size(), std::size_t{4});
        QCOMPARE(run->epochs.back().number, 4);
    }

    void epochDeleted_data() { addPollingColumn(); }
    void epochDeleted()
    {
        QFETCH(bool, polling);
        makeTree();
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_drop.string()));
        QSignalSpy removed(&watcher, &RunWatcher::epochRemoved);
        fs::remove_all(CandleFixture(m_root).epochDir(2));
        QTRY_COMPARE_WITH_TIMEOUT(removed.count(), 1, kLimitMs);
        QCOMPARE(removed.at(0).at(1).toInt(), 2);
        settle(watcher, polling);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(watcher.run(QString::fromStdString(m_root.string()))->epochs.size(),
                 std::size_t{2});
    }

    void epochOverwritten_data() { addPollingColumn(); }
    void epochOverwritten()
    {
        QFETCH(bool, polling);
        makeTree();
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_drop.string()));
        QSignalSpy changed(&watcher, &RunWatcher::epochChanged);
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        saveLikeCandle(m_root, 3, true); // a restart from epoch 2 rewrites epoch 3
        QTRY_COMPARE_WITH_TIMEOUT(changed.count() + added.count(), 1, kLimitMs);
        settle(watcher, polling);
        // Inside one debounce window the replacement is one change, not remove + add.
        QCOMPARE(changed.count(), 1);
        QCOMPARE(added.count(), 0);
        const Epoch epoch = changed.at(0).at(1).value<Epoch>();
        QCOMPARE(epoch.number, 3);
        QCOMPARE(epoch.metric(kBestSoFar).value_or(0), 0.25);
    }

    void lastRelinked_data() { addPollingColumn(); }
    void lastRelinked()
    {
        QFETCH(bool, polling);
        makeTree();
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_drop.string()));
        QSignalSpy links(&watcher, &RunWatcher::linkChanged);
        CandleFixture(m_root).linkAbsolute("last", 2); // remove then symlink, as CANDLE does
        QTRY_COMPARE_WITH_TIMEOUT(links.count(), 1, kLimitMs);
        const RunLink link = links.at(0).at(1).value<RunLink>();
        QCOMPARE(link.name, std::string("last"));
        QCOMPARE(link.epoch.value_or(-1), 2);
        settle(watcher, polling);
        QCOMPARE(links.count(), 1);
        QCOMPARE(
            watcher.run(QString::fromStdString(m_root.string()))->linkedEpoch("last").value_or(-1),
            2);
    }

    // Both changes land in one debounce batch: the epoch must be announced first.
    void epochAddedBeforeLinkInOneBatch_data() { addPollingColumn(); }
    void epochAddedBeforeLinkInOneBatch()
    {
        QFETCH(bool, polling);
        makeTree();
        RunWatcher::Options o = watcherOptions(polling);
        o.debounceMs = 60000; // only flush() below handles the batch
        RunWatcher watcher(o);
        watcher.addFolder(QString::fromStdString(m_drop.string()));
        QStringList order;
        connect(&watcher, &RunWatcher::epochAdded, this, [&](const QString&, const Epoch& e) {
            order << QString("epoch %1").arg(e.number);
        });
        connect(&watcher, &RunWatcher::linkChanged, this, [&](const QString&, const RunLink& l) {
            order << QString("%1 %2").arg(QString::fromStdString(l.name)).arg(l.epoch.value_or(-1));
        });
        saveLikeCandle(m_root, 4);
        CandleFixture(m_root).linkAbsolute("last", 4);
        if (polling)
            watcher.pollNow();
        else
            QCoreApplication::processEvents(); // the notifier reads both events
        QVERIFY(order.isEmpty());
        watcher.flush();
        QVERIFY2(order.contains("epoch 4"), qPrintable(order.join(", ")));
        QVERIFY2(order.contains("last 4"), qPrintable(order.join(", ")));
        QVERIFY2(order.indexOf("epoch 4") < order.indexOf("last 4"), qPrintable(order.join(", ")));
    }

    void newRunBelowFolder_data() { addPollingColumn(); }
    void newRunBelowFolder()
    {
        QFETCH(bool, polling);
        makeTree();
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_drop.string()));
        QSignalSpy added(&watcher, &RunWatcher::runAdded);
        // A second run starts: its folders appear level by level, then its first save.
        const fs::path root2 = m_drop / "exp" / "run2" / "save" / "ckpts";
        fs::create_directories(root2 / "epochs");
        settle(watcher, polling);
        saveLikeCandle(root2, 1);
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, kLimitMs);
        const Run run = added.at(0).at(0).value<Run>();
        QCOMPARE(run.root, root2.string());
        QTRY_COMPARE_WITH_TIMEOUT(
            watcher.run(QString::fromStdString(root2.string()))->epochs.size(), std::size_t{1},
            kLimitMs);
        settle(watcher, polling);
        QCOMPARE(added.count(), 1);
        QCOMPARE(watcher.runs().size(), std::size_t{2});
    }

    void runDeleted_data() { addPollingColumn(); }
    void runDeleted()
    {
        QFETCH(bool, polling);
        makeTree();
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_drop.string()));
        QSignalSpy removed(&watcher, &RunWatcher::runRemoved);
        fs::remove_all(m_drop / "exp" / "run1");
        QTRY_COMPARE_WITH_TIMEOUT(removed.count(), 1, kLimitMs);
        QCOMPARE(removed.at(0).at(0).toString().toStdString(), m_root.string());
        QVERIFY(watcher.runs().empty());
    }

    // The safety rescan reports what the watches missed, and only that.
    void rescanReportsOnlyDifferences()
    {
        makeTree();
        RunWatcher::Options o = watcherOptions(true);
        o.pollIntervalMs = 3600 * 1000; // no polls: changes go unseen until the rescan
        RunWatcher watcher(o);
        watcher.addFolder(QString::fromStdString(m_drop.string()));
        QSignalSpy runAdded(&watcher, &RunWatcher::runAdded);
        QSignalSpy epochAdded(&watcher, &RunWatcher::epochAdded);
        QSignalSpy epochRemoved(&watcher, &RunWatcher::epochRemoved);
        QSignalSpy links(&watcher, &RunWatcher::linkChanged);
        watcher.rescanNow();
        QCOMPARE(runAdded.count() + epochAdded.count() + epochRemoved.count() + links.count(), 0);

        CandleFixture fx(m_root);
        fs::remove_all(fx.epochDir(1));
        fx.addEpoch(4, 0.2);
        fx.linkAbsolute("last", 4);
        CandleFixture(m_drop / "other" / "ckpts").addEpoch(1, 0.5);
        watcher.rescanNow();
        QCOMPARE(epochRemoved.count(), 1);
        QCOMPARE(epochRemoved.at(0).at(1).toInt(), 1);
        QCOMPARE(epochAdded.count(), 1);
        QCOMPARE(epochAdded.at(0).at(1).value<Epoch>().number, 4);
        QCOMPARE(links.count(), 1);
        QCOMPARE(runAdded.count(), 1);
        QCOMPARE(runAdded.at(0).at(0).value<Run>().root, (m_drop / "other" / "ckpts").string());
    }

    // Runs the caller scanned already are adopted silently, not loaded again;
    // only an epoch saved since the caller's load is read and reported.
    void knownRunsAdopted()
    {
        makeTree();
        Run known = CandleLayout::instance().loadRun(m_root);
        QVERIFY(known.epochs.size() >= 2);
        const int newest = known.epochs.back().number;
        known.epochs.pop_back(); // saved after the caller's scan
        RunWatcher watcher(watcherOptions(false));
        QSignalSpy added(&watcher, &RunWatcher::runAdded);
        QSignalSpy epochAdded(&watcher, &RunWatcher::epochAdded);
        watcher.addFolder(QString::fromStdString(m_drop.string()), {known});
        QCOMPARE(added.count(), 0);
        QCOMPARE(epochAdded.count(), 1);
        QCOMPARE(epochAdded.at(0).at(1).value<Epoch>().number, newest);
        QCOMPARE(watcher.run(QString::fromStdString(m_root.string()))->epochs.size(),
                 known.epochs.size() + 1);
        QVERIFY(
            watcher.watchedPaths().contains(QString::fromStdString((m_root / "epochs").string())));
    }

    // The watcher's copy of an adopted run reads the caller's epochs (EpochList)
    // until one of them changes: a run is not held twice in memory.
    void knownRunsShareTheirEpochs_data() { addPollingColumn(); }
    void knownRunsShareTheirEpochs()
    {
        QFETCH(bool, polling);
        makeTree();
        const Run known = CandleLayout::instance().loadRun(m_root);
        const QString root = QString::fromStdString(m_root.string());
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_drop.string()), {known});
        QVERIFY(watcher.run(root)->epochs.sharesWith(known.epochs));
        settle(watcher, polling);
        watcher.rescanNow();
        QVERIFY(watcher.run(root)->epochs.sharesWith(known.epochs));

        QSignalSpy epochAdded(&watcher, &RunWatcher::epochAdded);
        saveLikeCandle(m_root, 4);
        if (polling)
            watcher.pollNow();
        QTRY_COMPARE_WITH_TIMEOUT(epochAdded.count(), 1, kLimitMs);
        QCOMPARE(watcher.run(root)->epochs.size(), known.epochs.size() + 1);
        QVERIFY(!watcher.run(root)->epochs.sharesWith(known.epochs));
        QCOMPARE(known.epochs.back().number, 3); // the caller's copy is left alone
    }

    void periodicRescanRunsOnWorker()
    {
        makeTree();
        RunWatcher::Options o = watcherOptions(true);
        o.pollIntervalMs = 3600 * 1000;
        o.rescanIntervalMs = 100;
        RunWatcher watcher(o);
        watcher.addFolder(QString::fromStdString(m_drop.string()));
        QSignalSpy removed(&watcher, &RunWatcher::epochRemoved);
        fs::remove_all(CandleFixture(m_root).epochDir(3));
        QTRY_COMPARE_WITH_TIMEOUT(removed.count(), 1, kLimitMs);
        // The rescan that reports the next change ran after the first report: had
        // it repeated epoch 3, the list would say so.
        fs::remove_all(CandleFixture(m_root).epochDir(2));
        QTRY_COMPARE_WITH_TIMEOUT(removed.count(), 2, kLimitMs);
        QCOMPARE(removed.at(0).at(1).toInt(), 3);
        QCOMPARE(removed.at(1).at(1).toInt(), 2);
        watcher.rescanNow();
        QCOMPARE(removed.count(), 2);
    }
};

QTEST_GUILESS_MAIN(tst_RunWatcher)
#include "tst_RunWatcher.moc"
