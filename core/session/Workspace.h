#pragma once

#include "model/MetricHistory.h"
#include "model/Run.h"
#include "models/ChecksumState.h"
#include "session/VerifyJob.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QThread;
class QThreadPool;

namespace ckpt {

class CompareModel;
class EpochTableModel;
class ProblemsModel;
class RunOperations;
class RunTreeModel;
class RunWatcher;

// The studio's controller: holds the runs of every opened folder, runs scans,
// history merges and verification on a thread pool and applies their results
// (and watcher events) to the item models on the GUI thread. No file I/O
// happens on the thread that owns it; results of work that went stale (folders
// closed, runs reloaded meanwhile) are dropped by generation counters.
class Workspace final : public QObject
{
    Q_OBJECT
public:
    struct RunState
    {
        QString folder;
        Run run;
        std::optional<MetricHistory> history;
        std::map<int, ChecksumState> checks;
        bool live = false;
        bool saving = false;
        qint64 lastChangeMs = 0; // when the watcher last saw a new epoch
        quint64 historyGeneration = 0;
        bool historyRunning = false;
        bool historyDirty = false;
    };

    explicit Workspace(QObject* parent = nullptr);
    ~Workspace() override;

    RunTreeModel* runTree() const { return m_runTree; }
    EpochTableModel* epochTable() const { return m_epochTable; }
    ProblemsModel* problems() const { return m_problems; }

    // Scans each folder in the background; runs appear as they are loaded.
    void openFolders(const QStringList& folders);
    void closeAll();
    QStringList folders() const;
    bool isScanning() const { return m_activeScans > 0; }
    // Nothing scanning, loading or merging in the background.
    bool isIdle() const;

    QStringList runRoots() const;
    const RunState* state(const QString& root) const;
    const Run* run(const QString& root) const;
    QString runName(const QString& root) const;

    // Which runs the epoch table (and the plot) show.
    void showRuns(const QStringList& roots);
    QStringList shownRuns() const { return m_shown; }

    // Re-reads one run from disk in the background (after an operation).
    void reloadRun(const QString& root);

    // Operations on disk (core/ops), run in the background; each ends with
    // operationFinished and a reload of the run.
    RunOperations* operations() const { return m_operations; }

    // Verifies checksums in the background: `epochs` per run root, an empty
    // list meaning every epoch. One verification at a time.
    void verify(const std::map<QString, std::vector<int>>& epochs);
    void cancelVerify();
    bool isVerifying() const { return m_verifyPhase != VerifyPhase::Idle; }

signals:
    void runAdded(const QString& root);
    void runChanged(const QString& root);
    void historyChanged(const QString& root);
    void scanStarted(const QString& folder);
    void scanFinished(const QString& folder, const QString& error, int runs);
    void allScansFinished();
    void message(const QString& text);
    // `error` empty on success; `action` is "relink", "undo", "repair" or "prune".
    void operationFinished(const QString& root, const QString& action, const QString& error);
    void relinked(const QString& root, const QString& link, int epoch);
    void verifyStarted(int epochs);
    void verifyProgress(quint64 done, quint64 total);
    void verifyFinished(const QString& summary);
    // A live run's new or rewritten epoch (the watcher saw it).
    void epochAdded(const QString& root, int epoch);

private:
    void scanFolder(const QString& folder);
    void applyLoadedRun(quint64 generation, const QString& folder, std::shared_ptr<Run> run);
    void scheduleHistory(const QString& root);
    void applyHistory(const QString& root, quint64 generation,
                      std::shared_ptr<MetricHistory> history);
    void refreshSummary(const QString& root);
    void prepareVerifyBatch();
    void applyVerifyReport(std::shared_ptr<VerifyJob::Outcome> outcome);
    void setChecks(const QString& root, const std::map<int, ChecksumState>& checks);
    void connectWatcher();
    void onWatchedEpoch(const QString& root, const Epoch& epoch);
    void onWatchedEpochRemoved(const QString& root, int epoch);
    void onWatchedLink(const QString& root, const RunLink& link);
    void onWatchedSave(const QString& root, bool inProgress);
    void setLive(const QString& root, bool live);

    RunTreeModel* m_runTree;
    EpochTableModel* m_epochTable;
    ProblemsModel* m_problems;
    QThreadPool* m_pool;
    RunOperations* m_operations;
    std::map<QString, RunState> m_runs;
    QStringList m_folders;
    QStringList m_shown;
    quint64 m_generation = 1;
    int m_activeScans = 0;
    int m_pendingJobs = 0;
    enum class VerifyPhase
    {
        Idle,
        Preparing,
        Running,
        Applying
    };
    static constexpr int VerifyBatch = 4; // runs per event-loop pass
    VerifyPhase m_verifyPhase = VerifyPhase::Idle;
    std::vector<std::pair<QString, std::vector<int>>> m_verifyQueue;
    std::vector<Run> m_verifyRuns;
    int m_verifyCount = 0;
    VerifyJob* m_verifyJob = nullptr;
    std::map<QString, std::vector<int>> m_verifying;
    QThread* m_watchThread;
    RunWatcher* m_watcher;
    // Shared with workers so closing or quitting stops their work early.
    std::shared_ptr<std::atomic_bool> m_cancel;
};

} // namespace ckpt
