#include "session/RunOperations.h"

#include "launch/Lineage.h"
#include "ops/LeftoverWork.h"
#include "ops/Pruner.h"
#include "ops/Relinker.h"

#include <QFileInfo>
#include <QFutureWatcher>
#include <QThreadPool>
#include <QtConcurrent>

namespace ckpt {

RunOperations::RunOperations(QThreadPool* pool, QObject* parent) : QObject(parent), m_pool(pool) {}

bool RunOperations::isRepairable(const Problem& problem)
{
    // Only a link a move or a copy broke has a repair that cannot lose anything:
    // it is re-pointed, relative, at the local epoch it is already shown as.
    if (problem.kind != ProblemKind::RelocatedLink && problem.kind != ProblemKind::CopiedLink)
        return false;
    const QString name = QFileInfo(QString::fromStdString(problem.path)).fileName();
    return name == QLatin1String("last") || name == QLatin1String("best");
}

template <typename Work>
void RunOperations::run(const QString& root, const QString& action, Work work)
{
    ++m_pending;
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, root, action] {
        watcher->deleteLater();
        --m_pending;
        const QString error = watcher->result();
        emit finished(root, action, error);
    });
    watcher->setFuture(QtConcurrent::run(m_pool, std::move(work)));
}

void RunOperations::relink(const QString& root, const QString& link, int epoch, bool announce,
                           bool force)
{
    run(root, QStringLiteral("relink"), [this, root, link, epoch, announce, force] {
        RelinkOptions options;
        options.force = force;
        auto r = Relinker::relink(root.toStdString(), link.toStdString(), epoch, options);
        if (!r)
            return QString::fromStdString(r.error().message);
        if (announce)
            announceRelink(root, *r);
        return QString();
    });
}

void RunOperations::undo(const QString& root)
{
    run(root, QStringLiteral("undo"), [root] {
        auto r = Relinker::undo(root.toStdString());
        return r ? QString() : QString::fromStdString(r.error().message);
    });
}

void RunOperations::repair(const QString& root, const QString& link)
{
    run(root, QStringLiteral("repair"), [this, root, link] {
        auto r = Relinker::repair(root.toStdString(), link.toStdString());
        if (!r)
            return QString::fromStdString(r.error().message);
        announceRelink(root, *r);
        return QString();
    });
}

void RunOperations::repairAll(const QString& root)
{
    run(root, QStringLiteral("repair"), [this, root] {
        auto r = Relinker::repairAll(root.toStdString());
        if (!r)
            return QString::fromStdString(r.error().message);
        for (const RelinkOutcome& o : *r)
            announceRelink(root, o);
        return QString();
    });
}

void RunOperations::moveWorkAside(const QString& root)
{
    run(root, QStringLiteral("move work/ aside"), [root] {
        auto r = LeftoverWork::moveAside(root.toStdString(), {});
        return r ? QString() : QString::fromStdString(r.error().message);
    });
}

void RunOperations::announceRelink(const QString& root, const RelinkOutcome& outcome)
{
    if (!outcome.changed || !outcome.epoch)
        return;
    const QString link = QString::fromStdString(outcome.link);
    const int epoch = *outcome.epoch;
    QMetaObject::invokeMethod(
        this, [this, root, link, epoch] { emit relinked(root, link, epoch); },
        Qt::QueuedConnection);
}

QString RunOperations::pruneOutcome(const QString& root, const Result<PruneOutcome>& r, bool again)
{
    if (!r)
        return QString::fromStdString(r.error().message);
    if (!r->trashed.empty())
        QMetaObject::invokeMethod(
            this, [this, root, trashed = r->trashed, again] { emit pruned(root, trashed, again); },
            Qt::QueuedConnection);
    QStringList notes;
    for (const auto& s : r->skipped)
        notes << QStringLiteral("epoch %1 kept: %2")
                     .arg(s.epoch)
                     .arg(QString::fromStdString(s.reason));
    for (const auto& w : r->warnings)
        notes << QString::fromStdString(w);
    return notes.join(QLatin1Char('\n'));
}

void RunOperations::prune(Run snapshot, const KeepPolicy& policy, bool toTrash)
{
    const QString root = QString::fromStdString(snapshot.root);
    run(root, QStringLiteral("prune"),
        [this, root, snapshot = std::move(snapshot), policy, toTrash] {
            PrunePlan plan = Pruner::plan(snapshot, policy, Lineage::forkPins(snapshot.root));
            plan.toTrash = toTrash;
            return pruneOutcome(root, Pruner::execute(snapshot, plan), false);
        });
}

void RunOperations::restore(const QString& root, const QString& layout,
                            std::vector<TrashedEpoch> trashed)
{
    run(root, QStringLiteral("restore"), [root, layout, trashed = std::move(trashed)] {
        auto r = Pruner::restore(root.toStdString(), layout.toStdString(), trashed);
        if (!r)
            return QString::fromStdString(r.error().message);
        QStringList failures;
        for (const auto& f : r->failures)
            failures << QString::fromStdString(f);
        return failures.join(QLatin1Char('\n'));
    });
}

void RunOperations::trashAgain(Run snapshot, const std::vector<TrashedEpoch>& trashed)
{
    PrunePlan plan;
    plan.root = snapshot.root;
    plan.toTrash = true;
    for (const TrashedEpoch& t : trashed) {
        if (t.epoch < 0)
            continue; // a leftover of an interrupted prune stays where it was restored
        plan.toDelete.push_back({t.epoch, t.item.original, t.bytes, t.device, t.inode});
        plan.bytesFreed += t.bytes;
    }
    const QString root = QString::fromStdString(snapshot.root);
    run(root, QStringLiteral("prune"), [this, root, snapshot = std::move(snapshot), plan] {
        return pruneOutcome(root, Pruner::execute(snapshot, plan), true);
    });
}

} // namespace ckpt
