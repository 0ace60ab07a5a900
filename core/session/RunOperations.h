#pragma once

#include "model/Run.h"
#include "ops/KeepPolicy.h"
#include "ops/Relinker.h"

#include <QObject>
#include <QString>

class QThreadPool;

namespace ckpt {

// Runs the disk operations of core/ops (relink, undo, repair, prune) on a
// thread pool, one result signal each. Holds no state but the count of
// operations under way.
class RunOperations final : public QObject
{
    Q_OBJECT
public:
    RunOperations(QThreadPool* pool, QObject* parent);

    // `force` overrides the refusals that protect a restart (RelinkOptions).
    void relink(const QString& root, const QString& link, int epoch, bool announce,
                bool force = false);
    void undo(const QString& root);
    void repair(const QString& root, const QString& link);
    // Every link of the run a move or a copy broke (Relinker::repairAll).
    void repairAll(const QString& root);
    // The leftover work/ of an interrupted save, renamed aside (never deleted).
    void moveWorkAside(const QString& root);
    // Plans and deletes on `snapshot`, a copy of the run as the user saw it.
    void prune(Run snapshot, const KeepPolicy& policy);
    int pending() const { return m_pending; }
    // Whether a problem has a safe one-click repair (ProblemsModel's "Repair").
    static bool isRepairable(const Problem& problem);

signals:
    // `error` empty on success; `action` is "relink", "undo", "repair", "prune" or
    // "move work/ aside".
    void finished(const QString& root, const QString& action, const QString& error);
    void relinked(const QString& root, const QString& link, int epoch);

private:
    // relinked() for a change made by repair, so that Edit ▸ Undo reverts it.
    void announceRelink(const QString& root, const RelinkOutcome& outcome);
    template <typename Work> void run(const QString& root, const QString& action, Work work);

    QThreadPool* m_pool;
    int m_pending = 0;
};

} // namespace ckpt
