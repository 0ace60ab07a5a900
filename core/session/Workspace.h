#pragma once

#include "liveness/Liveness.h"
#include "model/MetricHistory.h"
#include "model/Run.h"
#include "models/ChecksumState.h"
#include "session/RunRegistry.h"
#include "session/VerifySession.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <vector>

class QThread;
class QThreadPool;

namespace ckpt {

class CompareModel;
class EpochTableModel;
class HistoryService;
class LivenessMonitor;
class ProblemsModel;
class RemoteFolders;
class RemoteOperations;
class ReverifyQueue;
struct RemoteOptions;
class RunOperations;
class RunTreeModel;
class RunWatcher;
class ScanController;

// The studio's controller. It wires small parts together and keeps the one
// state per run (RunRegistry) every view is derived from: ScanController
// (scans, reloads), HistoryService (metric merges), VerifySession
// (verification, remembered verdicts), RunOperations (relink, prune, ...),
// and, on a thread of their own, RunWatcher and LivenessMonitor. Background
// work goes through JobRunner on one pool; stale results are dropped there.
// Every change to a run, whatever its source, ends in publish(): problems,
// sidebar badges and plot markers follow, the epoch table row by row.
class Workspace final : public QObject
{
    Q_OBJECT
public:
    using RunState = ckpt::RunState;

    explicit Workspace(QObject* parent = nullptr);
    ~Workspace() override;

    RunTreeModel* runTree() const { return m_runTree; }
    EpochTableModel* epochTable() const { return m_epochTable; }
    ProblemsModel* problems() const { return m_problems; }

    // Scans each folder in the background; runs appear as they are loaded.
    // `ssh://[user@]host[:port]/path` entries are remote folders (openRemote
    // with RemoteFolders::defaultOptions()).
    void openFolders(const QStringList& folders);
    // A folder on another machine, read through its `ckpt` over ssh: its runs'
    // roots are ssh:// URLs. Returns the folder's key, empty (and message())
    // when `url` is not a remote folder.
    QString openRemote(const QString& url, const RemoteOptions& options);
    // Closes one opened folder (local or remote) and forgets its runs.
    void closeFolder(const QString& folder);
    void closeAll();
    QStringList folders() const { return m_registry.folders(); }
    bool isScanning() const;
    // Nothing scanning, loading, merging, verifying or operating in the background.
    bool isIdle() const;

    QStringList runRoots() const;
    const RunState* state(const QString& root) const { return m_registry.find(root); }
    const Run* run(const QString& root) const;
    QString runName(const QString& root) const;
    // "FOLDER: 4 runs", the message a scan ends with; folderSummary counts the
    // folder's runs now (the watcher adds and removes them after the scan).
    static QString summaryText(const QString& folder, int runs);
    QString folderSummary(const QString& folder) const;

    // Which runs the epoch table (and the plot) show.
    void showRuns(const QStringList& roots);
    QStringList shownRuns() const { return m_shown; }

    // Re-reads one run from disk in the background (after an operation).
    void reloadRun(const QString& root);

    RunOperations* operations() const { return m_operations; }
    RemoteFolders* remote() const { return m_remote; }
    // Inspect, diff, prune, repair and undo of remote runs.
    RemoteOperations* remoteOperations() const { return m_remoteOps; }
    // Whether the run (or folder) lives on another machine (its root is an ssh:// URL).
    bool isRemote(const QString& root) const;
    VerifySession* verification() const { return m_verify; }

    // Verifies checksums in the background: `epochs` per run root, an empty
    // list meaning every epoch. One verification at a time.
    void verify(const std::map<QString, std::vector<int>>& epochs);
    void cancelVerify();
    bool isVerifying() const;

    // Handles the watcher's pending changes now and waits for it (tests).
    void flushWatcher();

signals:
    void runAdded(const QString& root);
    // The run's folder was deleted or moved (the watcher saw it go).
    void runRemoved(const QString& root, const QString& folder);
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
    // Something the user must see now: a verified file that changed on disk and
    // no longer matches its checksum (the text names the file).
    void alert(const QString& text);
    // A live run's new or rewritten epoch (the watcher saw it).
    void epochAdded(const QString& root, int epoch);
    void livenessChanged(const QString& root, ckpt::LiveState state);
    // Every background part became idle (isIdle()).
    void idle();
    // A remote folder's connection changed (RemoteFolders::connection()).
    void remoteConnectionChanged(const QString& folder);
    // A remote folder was opened or closed (remote()->folders() changed).
    void remoteFoldersChanged();

private:
    void startWatcher();
    void connectParts();
    void connectWatcher();
    void applyLoadedRun(const QString& folder, std::shared_ptr<Run> run);
    void removeRun(const QString& root);
    void onWatchedEpoch(const QString& root, const Epoch& epoch);
    void onWatchedEpochRemoved(const QString& root, int epoch);
    void onWatchedHead(const Run& head);
    void onLiveness(const QString& root, LiveState state);
    void onVerdicts(const QString& root, const VerifySession::Verdicts& verdicts);
    // Verifies the changed files that waited (ReverifyQueue) unless a verification runs.
    void reverifyChanged();
    void requestHistory(const QString& root);
    // A relink, undo, repair or prune ended (here or on a far host): the run is read again.
    void onOperationFinished(const QString& root, const QString& action, const QString& error);
    // A merged history arrived (local HistoryService or a far `ckpt history`).
    void onHistory(const QString& root, const std::shared_ptr<MetricHistory>& history);
    // Derives the problems and the sidebar row from the run's state.
    void publish(const QString& root);
    void refreshSummary(const QString& root);
    void checkIdle();
    // WorkspaceRemote.cpp: RemoteFolders' runs, events and results into the registry.
    void connectRemote();
    void applyRemoteRun(const QString& folder, std::shared_ptr<Run> run, LiveState live);
    void replaceRemoteRuns(const QString& folder, const QStringList& roots);
    void onRemoteLink(const QString& root, const QString& link, int epoch);
    void onRemoteConnection(const QString& folder);
    // Marks the epochs "verifying" and has the far ckpt verify them.
    void verifyRemote(const std::map<QString, std::vector<int>>& epochs);
    void onRemoteVerdicts(const QString& root, const VerifySession::Verdicts& verdicts);
    void onRemoteVerifyFinished(const QString& summary);

    RunTreeModel* m_runTree;
    EpochTableModel* m_epochTable;
    ProblemsModel* m_problems;
    QThreadPool* m_pool;
    RunRegistry m_registry;
    RunOperations* m_operations;
    ScanController* m_scans;
    HistoryService* m_history;
    VerifySession* m_verify;
    ReverifyQueue* m_reverify;
    RemoteFolders* m_remote;
    RemoteOperations* m_remoteOps;
    std::map<QString, std::vector<int>> m_remoteVerifyNext; // after the local verification
    std::map<QString, std::vector<int>> m_remoteVerifying;  // epochs the far verify reports
    QStringList m_shown;
    QThread* m_watchThread;
    RunWatcher* m_watcher = nullptr;
    LivenessMonitor* m_liveness = nullptr;
    bool m_wasIdle = true;
};

} // namespace ckpt
