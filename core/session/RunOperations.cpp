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

void RunOperations::prune(Run snapshot, const KeepPolicy& policy)
{
    const QString root = QString::fromStdString(snapshot.root);
    run(root, QStringLiteral("prune"), [snapshot = std::move(snapshot), policy] {
        const PrunePlan plan = Pruner::plan(snapshot, policy, Lineage::forkPins(snapshot.root));
        auto r = Pruner::execute(snapshot, plan);
        if (!r)
            return QString::fromStdString(r.error().message);
        QStringList notes;
        for (const auto& s : r->skipped)
            notes << QStringLiteral("epoch %1 kept: %2")
                         .arg(s.epoch)
                         .arg(QString::fromStdString(s.reason));
        return notes.join(QLatin1Char('\n'));
    });
}

} // namespace ckpt
