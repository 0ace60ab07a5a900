#pragma once

#include "liveness/Liveness.h"
#include "model/MetricHistory.h"
#include "model/Run.h"
#include "models/ChecksumState.h"

#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <optional>

namespace ckpt {

// Everything the studio knows about one run: the one state every view (epoch
// table, problems, sidebar badges, plot markers) is derived from.
struct RunState
{
    QString folder;
    Run run;
    // Shared with the plot, never changed in place: a new history replaces it
    // (copying a long history on the GUI thread for every new epoch cost
    // 20-100 ms at a million rows).
    std::shared_ptr<const MetricHistory> history;
    std::map<int, ChecksumVerdict> checks; // by epoch
    LiveState live = LiveState::Idle;

    // The run's problems, its epochs' and those verification found
    // (a checksum mismatch), run-level first.
    Problems problems() const;
    std::map<int, ChecksumState> checksumStates() const;
    std::map<int, QString> checksumNotes() const;
};

// The runs of the opened folders, by root, and the folders themselves.
class RunRegistry
{
public:
    // Adds `folder` (cleaned, absolute); false when it was open already.
    bool addFolder(const QString& folder);
    // Forgets `folder` and its runs; the roots it held.
    QStringList removeFolder(const QString& folder);
    QStringList folders() const { return m_folders; }
    // The opened folder `root` lies in, empty when none.
    QString folderOf(const QString& root) const;

    RunState* find(const QString& root);
    const RunState* find(const QString& root) const;
    // The state for `root`, created under `folder` when new (`added` says so).
    RunState& upsert(const QString& root, const QString& folder, bool& added);
    bool erase(const QString& root);
    void clear();
    const std::map<QString, RunState>& all() const { return m_runs; }
    std::map<QString, RunState>& all() { return m_runs; }

private:
    std::map<QString, RunState> m_runs;
    QStringList m_folders;
};

} // namespace ckpt
