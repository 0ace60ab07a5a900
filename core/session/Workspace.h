#pragma once

#include "model/MetricHistory.h"
#include "model/Run.h"
#include "models/ChecksumState.h"
#include "ops/KeepPolicy.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QThreadPool;

namespace ckpt {

class CompareModel;
class EpochTableModel;
class ProblemsModel;
class RunTreeModel;

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
        quint64 historyGeneration = 0;
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
    bool isIdle() const { return m_activeScans == 0 && m_pendingJobs == 0; }

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
    // `announce`: emit relinked() on success (an undo stack's redo does not).
    void relink(const QString& root, const QString& link, int epoch, bool announce = true);
    void undoRelink(const QString& root);
    void repairLink(const QString& root, const QString& link);
    void prune(const QString& root, const KeepPolicy& policy);
    // Whether ProblemsModel offers a one-click repair for this problem.
    static bool isRepairable(const Problem& problem);

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

private:
    void scanFolder(const QString& folder);
    void applyLoadedRun(quint64 generation, const QString& folder, std::shared_ptr<Run> run);
    void scheduleHistory(const QString& root);
    void applyHistory(const QString& root, quint64 generation,
                      std::shared_ptr<MetricHistory> history);
    void refreshSummary(const QString& root);
    template <typename Work>
    void runOperation(const QString& root, const QString& action, Work work);

    RunTreeModel* m_runTree;
    EpochTableModel* m_epochTable;
    ProblemsModel* m_problems;
    QThreadPool* m_pool;
    std::map<QString, RunState> m_runs;
    QStringList m_folders;
    QStringList m_shown;
    quint64 m_generation = 1;
    int m_activeScans = 0;
    int m_pendingJobs = 0;
    // Shared with workers so closing or quitting stops their work early.
    std::shared_ptr<std::atomic_bool> m_cancel;
};

} // namespace ckpt
