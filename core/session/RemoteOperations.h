#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "hdf5/TensorDiff.h"
#include "model/Run.h"
#include "ops/KeepPolicy.h"
#include "remote/RemoteRecords.h"

#include <QObject>
#include <QString>

#include <functional>
#include <vector>

class QThreadPool;

namespace ckpt {

class RemoteCkpt;
class RemoteFolders;

// What the window does to remote runs besides history, verify and relink
// (RemoteFolders): the far `ckpt` reads models (inspect, diff) and changes
// runs (prune, repair, undo of a relink), as RunOperations does for local
// runs, with the same signals. Reads are handed out as synchronous work for
// the requesting view to run on its own JobRunner (progress, Cancel, stale
// results dropped); changes run on the pool here. After a dropped connection
// the run is read back over a new one and the result says what happened.
class RemoteOperations final : public QObject
{
    Q_OBJECT
public:
    RemoteOperations(RemoteFolders* folders, QThreadPool* pool, QObject* parent = nullptr);

    using DiffWork = std::function<Result<ModelDiff>(const Progress&)>;
    using InspectWork = std::function<Result<RemoteInspect>(const Progress&)>;

    // The weights of epoch `a` of `runA` against epoch `b` of `runB` (the runs
    // as held), compared by the far ckpt of the host holding both; an Error
    // saying why not (a local and a remote epoch, two hosts, no model file).
    Result<DiffWork> diffWork(const Run& runA, int a, const Run& runB, int b) const;
    // Epoch `epoch`'s model file read on its host.
    Result<InspectWork> inspectWork(const Run& run, int epoch) const;
    // The host of a remote run root ("host" or "user@host:port"); empty for a local one.
    QString host(const QString& root) const;

    // `held`: the run as the window holds it (its epochs, for the read-back).
    void prune(const Run& held, const KeepPolicy& policy, const std::vector<int>& planned);
    // `link` is "last", "best" or "all".
    void repair(const QString& root, const QString& link);
    // Reverts the run's most recent relink, which moved `link` to `movedTo`.
    void undo(const QString& root, const QString& link, int movedTo);
    int pending() const { return m_pending; }

signals:
    // As RunOperations::finished: `error` empty on success; `action` is
    // "prune", "repair" or "undo".
    void finished(const QString& root, const QString& action, const QString& error);
    // A repair moved a link (Edit ▸ Undo can revert it).
    void relinked(const QString& root, const QString& link, int epoch);
    void message(const QString& text);

private:
    struct Done
    {
        QString error;
        QString message;
        std::vector<std::pair<QString, int>> relinked; // link, epoch
    };
    const RemoteCkpt* clientOf(const QString& root) const;
    Result<std::string> farModel(const Run& run, int epoch) const;
    template <typename Work> void run(const QString& root, const QString& action, Work work);

    RemoteFolders* m_folders;
    QThreadPool* m_pool;
    int m_pending = 0;
};

} // namespace ckpt
