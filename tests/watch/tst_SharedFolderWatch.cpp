#include "watch/RunWatcher.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <ProtobufFixture.h>
#include <filesystem>

using namespace ckpt;
using test::ProtobufFixture;
namespace fs = std::filesystem;

namespace {

constexpr int kLimitMs = 2000; // end to end, event to signal

RunWatcher::Options watcherOptions(bool polling)
{
    RunWatcher::Options o;
    o.debounceMs = 50;
    o.rescanIntervalMs = 0; // events alone must find the reruns
    o.polling = polling;
    o.pollIntervalMs = 50;
    return o;
}

std::string fileName(const std::string& prefix, int epoch)
{
    return prefix + "-" + std::to_string(epoch) + "_10.ckpt";
}

// As ModelCheckpoint saves: written as .tmp, then renamed.
void save(const fs::path& dir, const std::string& prefix, int epoch)
{
    const fs::path final = dir / fileName(prefix, epoch);
    const fs::path tmp = final.string() + ".tmp";
    ProtobufFixture::write(
        tmp, ProtobufFixture::mindspore(ProtobufFixture::network(epoch, 10), true), true);
    fs::rename(tmp, final);
}

void settle(RunWatcher& watcher, bool polling)
{
    if (polling)
        watcher.pollNow();
    else
        QCoreApplication::processEvents();
    watcher.flush();
}

// The roots a runAdded spy (a Run) or a runRemoved spy (a root) saw, sorted.
QStringList rootsOf(const QSignalSpy& spy)
{
    QStringList out;
    for (const auto& args : spy) {
        const QVariant& v = args.at(0);
        out << (v.metaType() == QMetaType::fromType<Run>()
                    ? QString::fromStdString(v.value<Run>().root)
                    : v.toString());
    }
    out.sort();
    return out;
}

} // namespace

// The watcher on a folder shared by MindSpore reruns (net, net_1, ...): one run
// per prefix, each kept current by the folder's one watch.
class tst_SharedFolderWatch : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    fs::path m_dir;

    QString root(const std::string& name) const
    {
        return QString::fromStdString((m_dir / name).string());
    }

    // net: 5 epochs; net_1 (a second process in the same folder): 3.
    void makeFolder(bool twoProcesses = true)
    {
        QVERIFY(m_tmp.isValid());
        const char* tag = QTest::currentDataTag();
        m_dir = fs::path(m_tmp.path().toStdString()) / QTest::currentTestFunction() /
                (tag ? tag : "") / "ckpt";
        for (int e = 1; e <= 5; ++e)
            save(m_dir, "net", e);
        for (int e = 1; twoProcesses && e <= 3; ++e)
            save(m_dir, "net_1", e);
    }

    void addPollingColumn()
    {
        QTest::addColumn<bool>("polling");
        QTest::newRow("inotify") << false;
        QTest::newRow("polling") << true;
    }

private slots:
    void bothRunsAnnounced()
    {
        makeFolder();
        RunWatcher watcher(watcherOptions(false));
        QSignalSpy added(&watcher, &RunWatcher::runAdded);
        watcher.addFolder(QString::fromStdString(m_dir.parent_path().string()));
        QCOMPARE(rootsOf(added), (QStringList{root("net"), root("net_1")}));
        QCOMPARE(watcher.run(root("net"))->epochs.size(), std::size_t{5});
        QCOMPARE(watcher.run(root("net_1"))->epochs.size(), std::size_t{3});
        // The folder is watched, the runs' names (no directories) are not.
        const QStringList watched = watcher.watchedPaths();
        QVERIFY(watched.contains(QString::fromStdString(m_dir.string())));
        QVERIFY(!watched.contains(root("net_1")));
    }

    void newEpochUpdatesOnlyItsRun_data() { addPollingColumn(); }
    void newEpochUpdatesOnlyItsRun()
    {
        QFETCH(bool, polling);
        makeFolder();
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_dir.string()));
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        QSignalSpy changed(&watcher, &RunWatcher::epochChanged);
        QSignalSpy removed(&watcher, &RunWatcher::epochRemoved);
        QSignalSpy runs(&watcher, &RunWatcher::runAdded);
        save(m_dir, "net_1", 4);
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, kLimitMs);
        settle(watcher, polling);
        settle(watcher, polling);
        QCOMPARE(added.count(), 1);
        QCOMPARE(added.at(0).at(0).toString(), root("net_1"));
        QCOMPARE(added.at(0).at(1).value<Epoch>().number, 4);
        QCOMPARE(changed.count(), 0);
        QCOMPARE(removed.count(), 0);
        QCOMPARE(runs.count(), 0);
        QCOMPARE(watcher.run(root("net"))->epochs.size(), std::size_t{5});
        QCOMPARE(watcher.run(root("net_1"))->epochs.size(), std::size_t{4});
        QCOMPARE(watcher.run(root("net_1"))->epochs.back().files[0].name, fileName("net_1", 4));
    }

    void newPrefixIsANewRun_data() { addPollingColumn(); }
    void newPrefixIsANewRun()
    {
        QFETCH(bool, polling);
        makeFolder();
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_dir.parent_path().string()));
        QSignalSpy runs(&watcher, &RunWatcher::runAdded);
        QSignalSpy gone(&watcher, &RunWatcher::runRemoved);
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        save(m_dir, "net_2", 1); // a third training process starts
        QTRY_COMPARE_WITH_TIMEOUT(runs.count(), 1, kLimitMs);
        settle(watcher, polling);
        QCOMPARE(runs.count(), 1);
        const Run run = runs.at(0).at(0).value<Run>();
        QCOMPARE(QString::fromStdString(run.root), root("net_2"));
        QCOMPARE(run.epochs.size(), std::size_t{1});
        QCOMPARE(gone.count(), 0);
        QCOMPARE(added.count(), 0);
        QCOMPARE(watcher.runs().size(), std::size_t{3});
    }

    void deletedPrefixRemovesItsRun_data() { addPollingColumn(); }
    void deletedPrefixRemovesItsRun()
    {
        QFETCH(bool, polling);
        makeFolder();
        save(m_dir, "net_2", 1);
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_dir.string()));
        QCOMPARE(watcher.runs().size(), std::size_t{3});
        QSignalSpy gone(&watcher, &RunWatcher::runRemoved);
        QSignalSpy removed(&watcher, &RunWatcher::epochRemoved);
        for (int e = 1; e <= 3; ++e)
            fs::remove(m_dir / fileName("net_1", e));
        QTRY_COMPARE_WITH_TIMEOUT(gone.count(), 1, kLimitMs);
        settle(watcher, polling);
        QCOMPARE(rootsOf(gone), QStringList{root("net_1")});
        QVERIFY(!watcher.run(root("net_1")));
        QCOMPARE(watcher.run(root("net"))->epochs.size(), std::size_t{5});
        QCOMPARE(watcher.runs().size(), std::size_t{2});
        // Its epochs went with it: no epoch of another run was touched.
        for (const auto& args : removed)
            QCOMPARE(args.at(0).toString(), root("net_1"));
    }

    // A folder of one run gets a rerun: the folder's run becomes the runs of its
    // prefixes; when the rerun's files go, the folder is one run again.
    void folderRunSplitsAndJoins_data() { addPollingColumn(); }
    void folderRunSplitsAndJoins()
    {
        QFETCH(bool, polling);
        makeFolder(false);
        RunWatcher watcher(watcherOptions(polling));
        watcher.addFolder(QString::fromStdString(m_dir.parent_path().string()));
        const QString folder = QString::fromStdString(m_dir.string());
        QVERIFY(watcher.run(folder));
        QSignalSpy runs(&watcher, &RunWatcher::runAdded);
        QSignalSpy gone(&watcher, &RunWatcher::runRemoved);
        save(m_dir, "net_1", 1);
        QTRY_COMPARE_WITH_TIMEOUT(runs.count(), 2, kLimitMs);
        settle(watcher, polling);
        QCOMPARE(rootsOf(runs), (QStringList{root("net"), root("net_1")}));
        QCOMPARE(rootsOf(gone), QStringList{folder});
        QCOMPARE(watcher.run(root("net"))->epochs.size(), std::size_t{5});

        // The rerun goes on saving: followed as its own run.
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        save(m_dir, "net_1", 2);
        QTRY_COMPARE_WITH_TIMEOUT(added.count(), 1, kLimitMs);
        QCOMPARE(added.at(0).at(0).toString(), root("net_1"));

        runs.clear();
        gone.clear();
        fs::remove(m_dir / fileName("net_1", 1));
        fs::remove(m_dir / fileName("net_1", 2));
        QTRY_COMPARE_WITH_TIMEOUT(runs.count(), 1, kLimitMs);
        settle(watcher, polling);
        QCOMPARE(rootsOf(runs), QStringList{folder});
        QCOMPARE(rootsOf(gone), (QStringList{root("net"), root("net_1")}));
        QCOMPARE(watcher.runs().size(), std::size_t{1});
        QCOMPARE(watcher.run(folder)->epochs.size(), std::size_t{5});
    }

    // The safety rescan agrees with what the events built.
    void rescanReportsNothingNew()
    {
        makeFolder();
        RunWatcher watcher(watcherOptions(false));
        watcher.addFolder(QString::fromStdString(m_dir.parent_path().string()));
        QSignalSpy runs(&watcher, &RunWatcher::runAdded);
        QSignalSpy gone(&watcher, &RunWatcher::runRemoved);
        QSignalSpy added(&watcher, &RunWatcher::epochAdded);
        watcher.rescanNow();
        QCOMPARE(runs.count() + gone.count() + added.count(), 0);
        QCOMPARE(watcher.runs().size(), std::size_t{2});
    }
};

QTEST_GUILESS_MAIN(tst_SharedFolderWatch)
#include "tst_SharedFolderWatch.moc"
