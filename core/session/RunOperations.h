#pragma once

#include "model/Run.h"
#include "ops/KeepPolicy.h"
#include "ops/Pruner.h"
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
    // Plans and deletes on `snapshot`, a copy of the run as the user saw it;
    // `toTrash`: into the desktop trash (pruned() then says where each went).
    void prune(Run snapshot, const KeepPolicy& policy, bool toTrash = false);
    // Puts a prune's trashed epochs back (Pruner::restore): Edit ▸ Undo.
    void restore(const QString& root, const QString& layout, std::vector<TrashedEpoch> trashed);
    // Moves the same epochs to the trash again, each only while it is the very
    // directory that was restored (Edit ▸ Redo).
    void trashAgain(Run snapshot, const std::vector<TrashedEpoch>& trashed);
    int pending() const { return m_pending; }
    // Whether a problem has a safe one-click repair (ProblemsModel's "Repair").
    static bool isRepairable(const Problem& problem);

signals:
    // `error` empty on success; `action` is "relink", "undo", "repair", "prune" or
    // "move work/ aside".
    void finished(const QString& root, const QString& action, const QString& error);
    void relinked(const QString& root, const QString& link, int epoch);
    // A prune moved these epochs to the trash (before finished()); `again`:
    // it was trashAgain(), a redo, not a new prune.
    void pruned(const QString& root, const std::vector<ckpt::TrashedEpoch>& trashed, bool again);

private:
    // relinked() for a change made by repair, so that Edit ▸ Undo reverts it.
    void announceRelink(const QString& root, const RelinkOutcome& outcome);
    template <typename Work> void run(const QString& root, const QString& action, Work work);
    // finished()'s text for a prune: the epochs kept after all, and why.
    QString pruneOutcome(const QString& root, const Result<PruneOutcome>& r, bool again);

    QThreadPool* m_pool;
    int m_pending = 0;
};

} // namespace ckpt
