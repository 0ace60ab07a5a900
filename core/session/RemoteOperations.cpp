#include "session/RemoteOperations.h"

#include "remote/RemoteCkpt.h"
#include "session/RemoteFolders.h"

#include <QFutureWatcher>
#include <QLocale>
#include <QThreadPool>
#include <QtConcurrent>

namespace ckpt {

namespace {

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// The far path of an ssh:// URL (a run root, an epoch folder, a model file).
std::string farPath(const std::string& url)
{
    auto target = RemoteTarget::parse(url);
    return target ? target->path : std::string();
}

// "user@host:port" of an ssh:// URL: two roots with the same one share a far ckpt.
std::string hostKey(const std::string& url)
{
    auto target = RemoteTarget::parse(url);
    if (!target)
        return {};
    target->path.clear();
    return target->url();
}

QString epochList(const std::vector<int>& epochs)
{
    QStringList out;
    for (const int e : epochs)
        out << QString::number(e);
    return out.join(QStringLiteral(", "));
}

} // namespace

RemoteOperations::RemoteOperations(RemoteFolders* folders, QThreadPool* pool, QObject* parent)
    : QObject(parent), m_folders(folders), m_pool(pool)
{}

const RemoteCkpt* RemoteOperations::clientOf(const QString& root) const
{
    return m_folders->client(m_folders->folderOf(root));
}

QString RemoteOperations::host(const QString& root) const
{
    const RemoteCkpt* client = clientOf(root);
    return client ? qs(client->target().display()) : QString();
}

// The far path of an epoch's model file, or an Error naming what is missing.
Result<std::string> RemoteOperations::farModel(const Run& run, int epoch) const
{
    const Epoch* e = run.findEpoch(epoch);
    const std::string model = e ? run.modelPath(*e) : std::string();
    if (model.empty())
        return Error{"epoch " + std::to_string(epoch) + " of " + farPath(run.root) + " on " +
                         host(qs(run.root)).toStdString() + " has no model file",
                     run.root};
    return farPath(model);
}

Result<RemoteOperations::DiffWork> RemoteOperations::diffWork(const Run& runA, int a,
                                                              const Run& runB, int b) const
{
    const RemoteCkpt* clientA = clientOf(qs(runA.root));
    const RemoteCkpt* clientB = clientOf(qs(runB.root));
    if (!clientA || !clientB) {
        const RemoteCkpt* far = clientA ? clientA : clientB;
        if (!far)
            return Error{"neither epoch is on another host: compare them here", {}};
        return Error{"The weights of an epoch on " + far->target().display() +
                         " and one on this computer cannot be compared: the model files are on "
                         "two machines. Compare two epochs of the same host.",
                     far->target().url()};
    }
    if (hostKey(runA.root) != hostKey(runB.root))
        return Error{"The weights of epochs on " + clientA->target().display() + " and " +
                         clientB->target().display() +
                         " cannot be compared: the model files are on two machines.",
                     clientA->target().url()};
    if (runA.root == runB.root)
        return DiffWork(
            [client = *clientA, run = farPath(runA.root), a, b](const Progress& progress) {
                return client.diffEpochs(run, a, b, progress);
            });
    // Two runs of one host: their model files, compared there.
    auto modelA = farModel(runA, a);
    auto modelB = farModel(runB, b);
    if (!modelA || !modelB)
        return (!modelA ? modelA : modelB).error();
    return DiffWork([client = *clientA, ma = *modelA, mb = *modelB](const Progress& progress) {
        return client.diff(ma, mb, progress);
    });
}

Result<RemoteOperations::InspectWork> RemoteOperations::inspectWork(const Run& run, int epoch) const
{
    const RemoteCkpt* client = clientOf(qs(run.root));
    if (!client)
        return Error{run.root + " is not on another host", run.root};
    auto model = farModel(run, epoch);
    if (!model)
        return model.error();
    return InspectWork([client = *client, m = *model](const Progress& progress) {
        return client.inspect(m, progress);
    });
}

template <typename Work>
void RemoteOperations::run(const QString& root, const QString& action, Work work)
{
    ++m_pending;
    auto* watcher = new QFutureWatcher<Done>(this);
    connect(watcher, &QFutureWatcher<Done>::finished, this, [this, watcher, root, action] {
        watcher->deleteLater();
        --m_pending;
        const Done done = watcher->result();
        for (const auto& [link, epoch] : done.relinked)
            emit relinked(root, link, epoch);
        emit finished(root, action, done.error);
        // After finished(): the Workspace's "done" line gives way to what was done.
        if (!done.message.isEmpty())
            emit message(done.message);
    });
    watcher->setFuture(QtConcurrent::run(m_pool, std::move(work)));
}

void RemoteOperations::prune(const Run& held, const KeepPolicy& policy,
                             const std::vector<int>& planned)
{
    const QString root = qs(held.root);
    const RemoteCkpt* client = clientOf(root);
    if (!client) {
        emit finished(root, QStringLiteral("prune"), tr("%1 is not on another host").arg(root));
        return;
    }
    run(root, QStringLiteral("prune"),
        [client = *client, far = farPath(held.root), policy, planned]() -> Done {
            const QString host = qs(client.target().display());
            auto r = client.prune(far, policy, planned);
            if (!r)
                return {qs(r.error().message), {}, {}};
            Done done;
            if (r->confirmedByRescan)
                done.message = tr("The connection to %1 dropped during the prune of %2; read "
                                  "back afterwards, epochs %3 are gone.")
                                   .arg(host, qs(far),
                                        r->deleted.empty() ? tr("(none)") : epochList(r->deleted));
            else
                done.message =
                    tr("Pruned %1 on %2: %n epoch(s) deleted (%3), %4 freed.", nullptr,
                       static_cast<int>(r->deleted.size()))
                        .arg(qs(far), host, epochList(r->deleted))
                        .arg(QLocale::c().formattedDataSize(static_cast<qint64>(r->bytesFreed), 1,
                                                            QLocale::DataSizeSIFormat));
            QStringList kept;
            for (const auto& s : r->skipped)
                kept << tr("epoch %1 kept: %2").arg(s.epoch).arg(qs(s.reason));
            if (!kept.isEmpty())
                done.error =
                    tr("On %1, in %2:\n%3").arg(host, qs(far), kept.join(QLatin1Char('\n')));
            return done;
        });
}

void RemoteOperations::repair(const QString& root, const QString& link)
{
    const RemoteCkpt* client = clientOf(root);
    if (!client) {
        emit finished(root, QStringLiteral("repair"), tr("%1 is not on another host").arg(root));
        return;
    }
    run(root, QStringLiteral("repair"),
        [client = *client, far = farPath(root.toStdString()), link]() -> Done {
            const QString host = qs(client.target().display());
            auto r = client.repair(far, link.toStdString());
            if (!r)
                return {qs(r.error().message), {}, {}};
            Done done;
            if (r->confirmedByRescan) {
                if (!r->applied)
                    done.error = tr("The connection to %1 dropped before %2 of %3 was repaired; "
                                    "read back afterwards, it is still broken. Try again.")
                                     .arg(host, link, qs(far));
                else
                    done.message = tr("The connection to %1 dropped during the repair; read back "
                                      "afterwards, %2 of %3 is repaired.")
                                       .arg(host, link, qs(far));
                return done;
            }
            QStringList moved;
            for (const auto& m : r->moved)
                if (m.changed && m.epoch) {
                    done.relinked.emplace_back(qs(m.link), *m.epoch);
                    moved << tr("%1 → epoch %2").arg(qs(m.link)).arg(*m.epoch);
                }
            done.message =
                moved.isEmpty()
                    ? tr("Nothing to repair in %1 on %2.").arg(qs(far), host)
                    : tr("Repaired on %1: %2.").arg(host, moved.join(QStringLiteral(", ")));
            return done;
        });
}

void RemoteOperations::undo(const QString& root, const QString& link, int movedTo)
{
    const RemoteCkpt* client = clientOf(root);
    if (!client) {
        emit finished(root, QStringLiteral("undo"), tr("%1 is not on another host").arg(root));
        return;
    }
    run(root, QStringLiteral("undo"),
        [client = *client, far = farPath(root.toStdString()), link, movedTo]() -> Done {
            const QString host = qs(client.target().display());
            auto r = client.undoRelink(far, link.toStdString(), movedTo);
            if (!r)
                return {qs(r.error().message), {}, {}};
            const QString now = r->epoch ? QString::number(*r->epoch) : tr("none");
            Done done;
            if (r->confirmedByRescan && !r->applied)
                done.error = tr("The connection to %1 dropped before the undo; read back "
                                "afterwards, %2 still points at epoch %3. Try again.")
                                 .arg(host, link, now);
            else if (r->confirmedByRescan)
                done.message = tr("The connection to %1 dropped during the undo; read back "
                                  "afterwards, %2 points at %3 again.")
                                   .arg(host, link, now);
            else
                done.message = tr("Undone on %1: %2 → %3.").arg(host, link, now);
            return done;
        });
}

} // namespace ckpt
