#pragma once

#include "liveness/Liveness.h"
#include "model/MetricHistory.h"
#include "model/Run.h"
#include "remote/RemoteCkpt.h"
#include "remote/RemoteTarget.h"
#include "session/VerifySession.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <set>
#include <vector>

class QThreadPool;

namespace ckpt {

class JobRunner;
class RemoteWatch;

// The folders opened over ssh (`ssh://[user@]host[:port]/path`), for the
// Workspace: each has a streamed RemoteCkpt::scan (runs handed over as the far
// `ckpt` prints them), one RemoteWatch (events, reconnect with back-off, a
// re-scan after `resynced` or after a failed scan once connected again) and a
// connection state. A run's root here is its ssh:// URL (the far root behind
// the folder's "ssh://user@host:port" prefix), so it never collides with a
// local path. History, verify and relink of remote runs go through RemoteCkpt
// on the pool (JobRunner: stale results dropped); nothing touches the local
// file system for them.
class RemoteFolders final : public QObject
{
    Q_OBJECT
public:
    enum class Connection
    {
        Connecting,
        Connected,
        Reconnecting,
        Failed,
    };
    Q_ENUM(Connection)

    RemoteFolders(QThreadPool* pool, QObject* parent = nullptr);
    ~RemoteFolders() override;

    static bool looksRemote(const QString& text);
    // ssh from CKPT_SSH_COMMAND (e.g. "ssh -F ~/.ssh/cluster_config"), the far
    // ckpt from CKPT_REMOTE_CKPT, else `ssh` and `ckpt` on the far PATH.
    static RemoteOptions defaultOptions();

    // Starts the scan and the watch; the folder's key (its canonical URL) or
    // an error when `url` is not a remote folder. Opening an open folder again
    // returns its key.
    Result<QString> open(const QString& url, const RemoteOptions& options);
    void close(const QString& folder);
    void closeAll();
    // Connects and scans again at once (the user's "Retry now").
    void retry(const QString& folder);

    QStringList folders() const;
    bool contains(const QString& folder) const { return m_folders.count(folder) > 0; }
    // The remote folder a run root belongs to, empty for a local root.
    QString folderOf(const QString& root) const;
    QString host(const QString& folder) const;
    Connection connection(const QString& folder) const;
    // What the user reads about the connection: names the host and what to do.
    QString connectionMessage(const QString& folder) const;
    // A short word for the sidebar: empty while connected.
    QString staleLabel(const QString& folder) const;
    const RemoteCkpt* client(const QString& folder) const;
    // The far path behind a remote run root ("" when `root` is not remote).
    std::string farPath(const QString& root) const;
    // "ssh://user@host:port" of a folder: a far path behind it is a root here.
    QString urlPrefix(const QString& folder) const;
    bool isBusy() const;
    // Back-off of the watches opened from now on (tests shorten it).
    void setBackoff(int firstMs, int maxMs);

    void requestHistory(const QString& root);
    void reload(const QString& root);
    // `announce`: relinked() when applied (an Edit ▸ Undo entry); a redo does not.
    void relink(const QString& root, const QString& link, int epoch, bool announce = true);
    // `epochs` per remote run root, empty meaning all; one verification at a time.
    void verify(const std::map<QString, std::vector<int>>& epochs);
    void cancelVerify();
    bool isVerifying() const;

signals:
    void runLoaded(const QString& folder, std::shared_ptr<ckpt::Run> run, ckpt::LiveState live);
    // A whole scan ended: `roots` are all the folder's runs now (when `error` is empty).
    void scanFinished(const QString& folder, const QString& error, const QStringList& roots);
    void connectionChanged(const QString& folder);
    void epochAdded(const QString& root, const ckpt::Epoch& epoch);
    void epochRemoved(const QString& root, int epoch);
    void linkChanged(const QString& root, const QString& link, int epoch);
    void livenessChanged(const QString& root, ckpt::LiveState state);
    void historyReady(const QString& root, std::shared_ptr<ckpt::MetricHistory> history);
    void verifyStarted(int runs);
    void verifyProgress(quint64 done, quint64 total);
    void verdicts(const QString& root, const ckpt::VerifySession::Verdicts& verdicts);
    void verifyFinished(const QString& summary);
    void operationFinished(const QString& root, const QString& action, const QString& error);
    void relinked(const QString& root, const QString& link, int epoch);
    void message(const QString& text);
    void busyChanged();
    // The folder's watch saw runs appear, go, or save an epoch.
    void runsChanged(const QString& folder);

private:
    struct Folder;

    Folder* find(const QString& folder) const;
    Folder* owner(const QString& root) const;
    std::string farRoot(const Folder& f, const QString& root) const;
    void startWatch(Folder& f);
    void scan(Folder& f);
    void onWatchState(Folder& f);
    void setConnection(Folder& f, Connection state, const QString& message);
    JobRunner* runner(std::map<QString, JobRunner*>& runners, const QString& key);

    QThreadPool* m_pool;
    std::map<QString, std::unique_ptr<Folder>> m_folders;
    std::map<QString, JobRunner*> m_histories; // by run root
    std::map<QString, JobRunner*> m_reloads;   // by run root
    JobRunner* m_verifier;
    JobRunner* m_relinker;
    quint64 m_generation = 0;
    int m_firstBackoffMs = 500;
    int m_maxBackoffMs = 30000;
};

} // namespace ckpt
