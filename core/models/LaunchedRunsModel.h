#pragma once

#include "launch/Launcher.h"
#include "launch/Lineage.h"
#include "remote/RemoteLaunchedRuns.h"

#include <QAbstractTableModel>
#include <QString>
#include <QTimer>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ckpt {

class JobRunner;

// The runs Ckpt Studio launched (the per-user registry), one row each, kept
// up to date: records read, processes probed and Slurm asked (Launcher::runs)
// on a JobRunner, never on the model's thread; a refresh started while one is
// running supersedes it (its result is dropped). Refreshes come every
// busyInterval while something is pending or running, every idleInterval
// otherwise, and on demand; the Duration column of running rows ticks every
// second without any I/O. Also stops runs (Launcher::stop, off the thread) and
// gives the lineage edges of the records it read. Far folders (setRemoteSources)
// add the runs launched there, read over ssh in the same refresh (`ckpt runs`,
// `ckpt lineage`), their roots ssh:// URLs, stopped and forgotten there.
class LaunchedRunsModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        StateColumn,
        BackendColumn,
        ProcessColumn,
        ParentColumn,
        StartedColumn,
        DurationColumn,
        ColumnCount
    };

    explicit LaunchedRunsModel(LaunchRegistry registry = LaunchRegistry(),
                               QObject* parent = nullptr);
    ~LaunchedRunsModel() override;

    // Periodic refresh; 0 turns it off. Defaults: 2 s busy, 15 s idle.
    void setIntervals(int busyMs, int idleMs);
    // Starts a refresh now, or right after the one in flight.
    void refresh();
    bool isRefreshing() const;
    // Refreshes applied since construction (tests and the bench wait on it).
    int refreshCount() const { return m_refreshCount; }

    // Far folders whose launched runs are listed too; refreshes now.
    void setRemoteSources(std::vector<RemoteLaunchedRuns::Source> sources);
    // The far host of a row's run ("" on this machine).
    QString hostAt(int row) const;
    bool isRemote(const QString& root) const { return !hostAt(rowOf(root)).isEmpty(); }

    int rowOf(const QString& root) const;
    QString rootAt(int row) const;
    QString nameOf(const QString& root) const;
    // The latest attempt's log ("" when unknown).
    QString logPathAt(int row) const;
    RunState stateAt(int row) const;
    std::optional<RunState> stateOf(const QString& root) const;
    const LaunchRecord* recordAt(int row) const;
    bool anyActive() const;
    // Restarts and forks recorded in the runs read, oldest first.
    const std::vector<LineageEdge>& edges() const { return m_edges; }
    const LaunchRegistry& registry() const { return m_launcher.registry(); }

    // Stops `root`'s latest attempt (SIGTERM, SIGKILL after `grace`; scancel)
    // off this thread; stopFinished() follows, then a refresh.
    void stop(const QString& root, std::chrono::milliseconds grace);
    bool isStopping(const QString& root) const { return m_stopping.contains(root); }
    // Takes `root` off the registry (its files and launch record stay), then
    // refreshes; an error message when the registry could not be changed. A
    // far run is forgotten there, off this thread: forgetFinished() follows.
    QString forget(const QString& root);
    // The runs whose folder no longer exists ("gone"), in table order.
    QStringList goneRuns() const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

signals:
    void refreshed();
    // The edges or a run's state changed: the lineage graph is out of date.
    void lineageChanged();
    void refreshFailed(const QString& message);
    void stopFinished(const QString& root, const QString& error);
    void forgetFinished(const QString& root, const QString& error);

private:
    struct Row
    {
        Launcher::Listed run;
        QString folder; // the far folder it was listed under; "" on this machine
    };
    struct Snapshot
    {
        std::vector<Row> runs;
        std::vector<LineageEdge> edges;
        QString error;
        std::vector<RemoteLaunchedRuns::Result> remote;
        std::map<std::string, std::string> names; // namesOf(runs, edges)
    };
    static Snapshot collect(const Launcher& launcher,
                            const std::vector<RemoteLaunchedRuns::Source>& remotes,
                            const std::vector<RemoteLaunchedRuns::Result>& previous,
                            const Progress& progress);
    const RemoteLaunchedRuns::Source* sourceAt(int row) const;
    // A far job (stop, forget) on its own runner; `done` gets its error.
    void runRemote(const QString& root,
                   std::function<std::string(const RemoteCkpt&, const std::string&)> job,
                   std::function<void(const QString& error)> done);
    void apply(Snapshot snapshot);
    void scheduleNext();
    void tickDurations();
    QString lineageSignature() const;
    // Every listed run's name, and its parents': alike names told apart (RunNames).
    static std::map<std::string, std::string> namesOf(const std::vector<Row>& runs,
                                                      const std::vector<LineageEdge>& edges);
    QString shownName(const std::string& root) const;
    QVariant display(const Launcher::Listed& run, int column) const;
    QVariant sortValue(const Launcher::Listed& run, int column) const;

    Launcher m_launcher;
    JobRunner* m_runner;
    bool m_refreshAgain = false; // a refresh was asked for while one ran
    QTimer m_poll;
    QTimer m_clock;
    int m_busyMs = 2000;
    int m_idleMs = 15000;
    int m_refreshCount = 0;
    std::vector<Row> m_runs;
    std::vector<RemoteLaunchedRuns::Source> m_remotes;
    std::vector<RemoteLaunchedRuns::Result> m_remoteResults; // the last, per far folder
    std::vector<LineageEdge> m_edges;
    std::map<std::string, std::string> m_names; // run root -> name shown
    QString m_signature;
    QStringList m_stopping;
};

} // namespace ckpt
