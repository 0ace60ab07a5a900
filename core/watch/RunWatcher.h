#pragma once

#include "model/Run.h"
#include "watch/DirSnapshot.h"
#include "watch/RunDiff.h"
#include "watch/TrackedRun.h"

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <QTimer>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ckpt {

class WatchSet;

// Watches the folders a user dropped and the runs below them, and reports
// changes as they happen with work proportional to the change: a new or
// replaced epoch directory is read alone (Layout::loadEpoch), a relink re-reads
// the links alone (Layout::reloadLinks); nothing triggers a full rescan except
// the periodic safety rescan, which runs on a worker thread and reports only
// differences.
//
// QFileSystemWatcher watches each run root and every directory walked to reach
// runs (new runs appear there); an epoch directory is watched only while it is
// incomplete. epochs/ itself is watched with raw inotify (InotifyNotifier),
// whose events name the entry: a save then costs one fstatat and one
// loadEpoch, not a readdir of thousands of epochs. Polling mode replaces it
// for network file systems: every `pollIntervalMs` the same directories (and
// the last/best links) are lstat'ed and a changed one is handled as an event.
//
// CANDLE saves into work/ and renames it to epochs/NNN, so an epoch directory
// that appears is complete; while work/ exists, saveInProgress(root, true).
//
// Layouts whose epochs are files (WatchHints::epochFiles: Lightning .ckpt,
// Keras .h5) are followed the same way, file entries taken as epochs; a file
// written in place appears unfinished (no record) and is watched until its
// writer is done, exactly like an incomplete epoch directory.
class RunWatcher : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        int debounceMs = 50;          // events within this window are handled together
        int rescanIntervalMs = 30000; // periodic safety rescan; 0: never
        bool polling = false;         // stat-based polling instead of inotify
        int pollIntervalMs = 1000;
        int maxDepth = 64;
    };

    explicit RunWatcher(QObject* parent = nullptr);
    explicit RunWatcher(const Options& options, QObject* parent = nullptr);
    ~RunWatcher() override;

    const Options& options() const { return m_options; }

    // Walks `folder` now and watches it. Runs found are announced with runAdded,
    // except those in `known` (already loaded by the caller, e.g. with
    // Scanner::scan), which are adopted without a signal or a reload.
    void addFolder(const QString& folder, const std::vector<Run>& known = {});
    // Stops watching `folder`; its runs are forgotten with runRemoved.
    void removeFolder(const QString& folder);
    QStringList folders() const;

    std::vector<Run> runs() const;
    std::optional<Run> run(const QString& root) const;
    bool isSaveInProgress(const QString& root) const;
    // Every path watched (inotify) or polled, sorted: for tests and diagnostics.
    QStringList watchedPaths() const;

    // Re-walks every folder and reloads every run now, on this thread, and
    // reports the differences (the periodic rescan does this on a worker).
    void rescanNow();
    // Handles pending changes now instead of after the debounce delay.
    void flush();
    // One polling pass now (polling mode): for tests and benchmarks.
    void pollNow();

signals:
    void runAdded(const ckpt::Run& run);
    void runRemoved(const QString& root);
    void epochAdded(const QString& root, const ckpt::Epoch& epoch);
    void epochRemoved(const QString& root, int epoch);
    void epochChanged(const QString& root, const ckpt::Epoch& epoch);
    // A removed link is reported with its name only (no path, no epoch).
    void linkChanged(const QString& root, const ckpt::RunLink& link);
    // work/ appeared (a save is being written) or went away.
    void saveInProgress(const QString& root, bool inProgress);
    // The run-level state (links, work/, run problems such as a link pointing
    // outside the run or best not at the best epoch) differs from the last one
    // reported or adopted: `head` is the run without its epochs (RunDiff::headOf).
    void runHeadChanged(const ckpt::Run& head);
    // A file the run's history is read from (Run::sources: training.log,
    // ckpt.log, ...) was written, replaced or removed, with no epoch saved:
    // a trainer logging its metrics after the checkpoint, a restart rewriting
    // its log. Also when such a file appears where the layout looks for one
    // (Layout::sourceCandidates: a metrics.csv created after the run was
    // opened); the run's new sources then come first, with runHeadChanged.
    void sourcesChanged(const QString& root);

private:
    struct RescanResult
    {
        std::vector<std::string> dirs;
        std::vector<TrackedRun> runs;
        std::uint64_t generation = 0;
    };

    void markDirty(const std::string& path);
    void processDir(const std::string& dir);
    void processRoot(const std::string& root);
    // epochs/ of `root` changed: reload the named entries, or all of them.
    void processEpochsDir(const std::string& epochsDir, const std::string& root);
    void processEpochs(const std::string& root);
    void processEpochNames(const std::string& root, const std::set<std::string>& names);
    void syncEpoch(TrackedRun& tracked, int number, const std::optional<TrackedRun::EpochDir>& now,
                   RunChanges& changes);
    void finishEpochChanges(const std::string& root, const RunChanges& changes);
    void onEpochEntry(const std::string& dir, const std::string& name);
    void processPending(const std::string& dir);
    void refreshLinks(TrackedRun& tracked);
    void emitChanges(const std::string& root, const RunChanges& changes);

    // A walked directory's runs from its listing (RunWatcherFolders.cpp): true when
    // the directory itself is a run now; runs sharing it (Layout::runRoots) are
    // added, brought up to date or removed.
    bool syncFolderRuns(const DirListing& listing);
    bool sharesFolder(const std::string& root) const;

    void adoptWalk(const std::string& dir, const std::vector<Run>& known = {});
    void addRun(TrackedRun tracked, bool announce);
    void removeRun(const std::string& root, bool announce);
    void removeSubtree(const std::string& dir);
    void watchEpochIfIncomplete(const std::string& root, const Epoch& epoch);
    // The files of finished epochs are watched too (a truncated ckpt-info.json,
    // a rewritten model), the newest first, within a budget of inotify watches;
    // the periodic rescan covers the rest.
    void watchEpochContents(const std::string& root, const Epoch& epoch);
    void unwatchEpochContents(const std::string& root, std::optional<int> number);
    void processContents(const std::string& dir);
    // Emits runHeadChanged for the runs whose head differs from the last one
    // reported; a run whose sources differ is due a sourcesChanged.
    void announceHeads();
    // Watches the source files of the runs tracked now (and no others): those
    // found and those the layout would read once they exist
    // (Layout::sourceCandidates), with the folders holding them, where a file
    // created later or renamed into place shows.
    void syncSources();
    // Compares the files among `touched` (or below a touched folder; every
    // one when `all`) with what was last seen. A file that appeared, went away
    // or was replaced makes the layout read the run's sources again
    // (Layout::reloadSources); each run reading a changed file is due a
    // sourcesChanged.
    void checkSources(const std::set<std::string>& touched, bool all = false);
    // Emits sourcesChanged for the runs due one, after their new head.
    void emitSourcesChanged();
    // Is `path` watched for a reason other than being a source's folder?
    bool watchedOtherwise(const std::string& path) const;

    void startPeriodicRescan();
    void applyRescan(RescanResult result);
    static RescanResult computeRescan(std::vector<std::string> folders, int maxDepth,
                                      std::uint64_t generation);

    Options m_options;
    WatchSet* m_watches = nullptr;
    QTimer m_debounce;
    QTimer m_rescanTimer;
    QTimer m_pollTimer;
    QFutureWatcher<RescanResult> m_rescan;

    std::vector<std::string> m_folders;
    std::map<std::string, TrackedRun> m_runs;        // by root
    std::set<std::string> m_dirs;                    // walked directories that are not runs
    std::map<std::string, std::string> m_epochsDirs; // <root>/epochs -> root
    std::map<std::string, std::pair<std::string, int>> m_pending; // incomplete epoch dir
    std::set<std::string> m_dirty;
    std::map<std::string, std::set<std::string>> m_epochNames; // epochs/ -> entries changed
    std::set<std::string> m_fullEpochs; // epochs/ to list whole (polling, overflow, replaced)
    std::uint64_t m_generation = 0;
    std::map<std::string, std::pair<std::string, int>> m_contents; // watched epoch dir -> run
    std::map<std::string, std::size_t> m_contentCount;             // by root
    std::set<std::string> m_fileContents; // m_contents entries that are epoch files
    std::map<std::string, Run> m_heads;   // last run-level state reported, by root
    struct SourceFile
    {
        std::set<std::string> roots; // the runs reading it
        DirSnapshot::StatKey seen;
    };
    std::map<std::string, SourceFile> m_sources; // by path
    std::set<std::string> m_sourceDirs;          // folders watched for the sources in them
    std::set<std::string> m_sourcesDue;          // roots due a sourcesChanged
    static constexpr std::size_t kContentWatchesPerRun = 1024;
    static constexpr std::size_t kContentWatches = 8192;
};

} // namespace ckpt
