#pragma once

#include "model/Run.h"
#include "ops/KeepPolicy.h"

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

    void relink(const QString& root, const QString& link, int epoch, bool announce);
    void undo(const QString& root);
    void repair(const QString& root, const QString& link);
    // Plans and deletes on `snapshot`, a copy of the run as the user saw it.
    void prune(Run snapshot, const KeepPolicy& policy);
    int pending() const { return m_pending; }
    // Whether a problem has a safe one-click repair (ProblemsModel's "Repair").
    static bool isRepairable(const Problem& problem);

signals:
    // `error` empty on success; `action` is "relink", "undo", "repair" or "prune".
    void finished(const QString& root, const QString& action, const QString& error);
    void relinked(const QString& root, const QString& link, int epoch);

private:
    template <typename Work> void run(const QString& root, const QString& action, Work work);

    QThreadPool* m_pool;
    int m_pending = 0;
};

} // namespace ckpt
