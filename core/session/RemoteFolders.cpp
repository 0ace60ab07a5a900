#include "session/RemoteFolders.h"

#include "jobs/JobRunner.h"
#include "remote/RemoteWatch.h"
#include "session/RemoteResults.h"

#include <QProcessEnvironment>
#include <QTimer>

namespace ckpt {

struct RemoteFolders::Folder
{
    Folder(QString k, QString p, RemoteCkpt c)
        : key(std::move(k)), prefix(std::move(p)), client(std::move(c))
    {}
    QString key;    // the canonical URL
    QString prefix; // "ssh://user@host:port": a far root behind it is a run root
    RemoteCkpt client;
    std::unique_ptr<RemoteWatch> watch;
    JobRunner* scanner = nullptr;
    quint64 scanGeneration = 0;
    bool scanned = false; // the last scan succeeded
    QString scanError;
    std::set<QString> roots;
    Connection state = Connection::Connecting;
    QString message;
};

namespace {
LiveState liveStateNamed(const std::string& name)
{
    for (const LiveState s : {LiveState::Live, LiveState::Interrupted})
        if (toString(s) == name)
            return s;
    return LiveState::Idle;
}

QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}
} // namespace

RemoteFolders::RemoteFolders(QThreadPool* pool, QObject* parent)
    : QObject(parent), m_pool(pool), m_verifier(new JobRunner(this, pool)),
      m_relinker(new JobRunner(this, pool))
{
    for (JobRunner* r : {m_verifier, m_relinker})
        connect(r, &JobRunner::runningChanged, this, &RemoteFolders::busyChanged);
    connect(m_verifier, &JobRunner::progress, this, &RemoteFolders::verifyProgress);
}

RemoteFolders::~RemoteFolders()
{
    // Runners wait for their ssh calls (cancelled: the ssh process is ended).
    closeAll();
}

bool RemoteFolders::looksRemote(const QString& text)
{
    return RemoteTarget::looksRemote(text.toStdString());
}

RemoteOptions RemoteFolders::defaultOptions()
{
    RemoteOptions o;
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const QStringList ssh =
        QProcess::splitCommand(env.value(QStringLiteral("CKPT_SSH_COMMAND")).trimmed());
    if (!ssh.isEmpty())
        o.ssh = ssh;
    if (const QString ckpt = env.value(QStringLiteral("CKPT_REMOTE_CKPT")); !ckpt.isEmpty())
        o.ckpt = ckpt.toStdString();
    return o;
}

Result<QString> RemoteFolders::open(const QString& url, const RemoteOptions& options)
{
    auto target = RemoteTarget::parse(url.trimmed().toStdString());
    if (!target)
        return target.error();
    const QString key = qs(target->url());
    if (contains(key))
        return key;
    RemoteTarget hostOnly = *target;
    hostOnly.path.clear();
    auto f = std::make_unique<Folder>(key, qs(hostOnly.url()), RemoteCkpt(*target, options));
    f->prefix.chop(1); // the url's "/" before the (empty) path
    f->scanner = new JobRunner(this, m_pool);
    connect(f->scanner, &JobRunner::runningChanged, this, &RemoteFolders::busyChanged);
    Folder& folder = *f;
    m_folders.emplace(key, std::move(f));
    setConnection(folder, Connection::Connecting,
                  tr("connecting to %1…").arg(qs(folder.client.target().display())));
    scan(folder);
    startWatch(folder);
    return key;
}

void RemoteFolders::close(const QString& key)
{
    auto it = m_folders.find(key);
    if (it == m_folders.end())
        return;
    Folder& f = *it->second;
    f.watch.reset();
    for (const QString& root : f.roots)
        for (auto* runners : {&m_histories, &m_reloads})
            if (auto r = runners->find(root); r != runners->end()) {
                delete r->second;
                runners->erase(r);
            }
    delete f.scanner;
    m_folders.erase(it);
    emit busyChanged();
}

void RemoteFolders::closeAll()
{
    cancelVerify();
    m_relinker->cancel();
    while (!m_folders.empty())
        close(m_folders.begin()->first);
}

void RemoteFolders::retry(const QString& key)
{
    Folder* f = find(key);
    if (!f)
        return;
    setConnection(*f, Connection::Connecting,
                  tr("connecting to %1…").arg(qs(f->client.target().display())));
    scan(*f);
    startWatch(*f);
}

QStringList RemoteFolders::folders() const
{
    QStringList out;
    for (const auto& [key, f] : m_folders)
        out << key;
    return out;
}

RemoteFolders::Folder* RemoteFolders::find(const QString& key) const
{
    auto it = m_folders.find(key);
    return it == m_folders.end() ? nullptr : it->second.get();
}

RemoteFolders::Folder* RemoteFolders::owner(const QString& root) const
{
    for (const auto& [key, f] : m_folders)
        if (f->roots.count(root) || root == key || root.startsWith(key + QLatin1Char('/')))
            return f.get();
    return nullptr;
}

QString RemoteFolders::folderOf(const QString& root) const
{
    const Folder* f = owner(root);
    return f ? f->key : QString();
}

QString RemoteFolders::host(const QString& key) const
{
    const Folder* f = find(key);
    return f ? qs(f->client.target().display()) : QString();
}

RemoteFolders::Connection RemoteFolders::connection(const QString& key) const
{
    const Folder* f = find(key);
    return f ? f->state : Connection::Failed;
}

QString RemoteFolders::connectionMessage(const QString& key) const
{
    const Folder* f = find(key);
    return f ? f->message : QString();
}

QString RemoteFolders::staleLabel(const QString& key) const
{
    switch (connection(key)) {
    case Connection::Connected:
        return {};
    case Connection::Connecting:
        return tr("connecting…");
    case Connection::Reconnecting:
        return tr("reconnecting");
    case Connection::Failed:
        return tr("failed");
    }
    return {};
}

const RemoteCkpt* RemoteFolders::client(const QString& key) const
{
    const Folder* f = find(key);
    return f ? &f->client : nullptr;
}

bool RemoteFolders::isBusy() const
{
    if (m_verifier->isRunning() || m_relinker->isRunning())
        return true;
    for (const auto& [key, f] : m_folders)
        if (f->scanner->isRunning() ||
            (f->watch && f->watch->state() == RemoteWatch::State::Connecting))
            return true;
    for (const auto* runners : {&m_histories, &m_reloads})
        for (const auto& [root, r] : *runners)
            if (r->isRunning())
                return true;
    return false;
}

void RemoteFolders::setBackoff(int firstMs, int maxMs)
{
    m_firstBackoffMs = firstMs;
    m_maxBackoffMs = maxMs;
}

std::string RemoteFolders::farPath(const QString& root) const
{
    const Folder* f = owner(root);
    return f ? farRoot(*f, root) : std::string();
}

QString RemoteFolders::urlPrefix(const QString& key) const
{
    const Folder* f = find(key);
    return f ? f->prefix : QString();
}

std::string RemoteFolders::farRoot(const Folder& f, const QString& root) const
{
    return root.mid(f.prefix.size()).toStdString();
}

JobRunner* RemoteFolders::runner(std::map<QString, JobRunner*>& runners, const QString& key)
{
    JobRunner*& r = runners[key];
    if (!r) {
        r = new JobRunner(this, m_pool);
        connect(r, &JobRunner::runningChanged, this, &RemoteFolders::busyChanged);
    }
    return r;
}

void RemoteFolders::setConnection(Folder& f, Connection state, const QString& text)
{
    if (f.state == state && f.message == text)
        return;
    f.state = state;
    f.message = text;
    emit connectionChanged(f.key);
    emit message(text);
}

// The far runs stream in as `ckpt scan --json` prints them; a finished scan
// says which runs the folder holds now (a re-scan replaces the state).
void RemoteFolders::scan(Folder& folder)
{
    const quint64 generation = folder.scanGeneration = ++m_generation;
    const QString key = folder.key;
    auto deliver = [this, key, generation](std::shared_ptr<Run> run, LiveState live) {
        Folder* at = find(key);
        if (!at || at->scanGeneration != generation)
            return;
        run->root = (at->prefix + qs(run->root)).toStdString();
        if (!run->dir.empty())
            run->dir = (at->prefix + qs(run->dir)).toStdString();
        at->roots.insert(qs(run->root));
        emit runLoaded(key, std::move(run), live);
    };
    using Scanned = Result<RunJsonReader::Scan>;
    folder.scanner->start<Scanned>(
        [this, client = folder.client, deliver](const Progress& progress) {
            return client.scan(client.target().path, progress,
                               [this, deliver](const Run& run, const std::string& live) {
                                   QMetaObject::invokeMethod(
                                       this,
                                       [deliver, run = std::make_shared<Run>(run),
                                        state = liveStateNamed(live)] { deliver(run, state); },
                                       Qt::QueuedConnection);
                               });
        },
        [this, key, generation](Scanned scanned) {
            Folder* at = find(key);
            if (!at || at->scanGeneration != generation)
                return;
            Folder& f = *at;
            if (!scanned) {
                f.scanned = false;
                f.scanError = qs(scanned.error().message);
                // The watch decides whether trying again can help; until it
                // has, the scan's reason is what the user reads.
                if (f.state != Connection::Failed)
                    setConnection(f,
                                  f.watch && f.watch->state() == RemoteWatch::State::Failed
                                      ? Connection::Failed
                                      : Connection::Reconnecting,
                                  f.scanError);
                // The watch is up, so it will not say "connected" again: the
                // folder is read again by itself a little later.
                if (f.watch && f.watch->state() == RemoteWatch::State::Connected)
                    QTimer::singleShot(m_firstBackoffMs * 4, this, [this, key] {
                        Folder* again = find(key);
                        if (again && !again->scanned && !again->scanner->isRunning())
                            scan(*again);
                    });
                emit scanFinished(key, f.scanError, {});
                return;
            }
            f.scanned = true;
            f.scanError.clear();
            QStringList roots;
            std::set<QString> now;
            for (const Run& run : scanned->runs) {
                roots << f.prefix + qs(run.root);
                now.insert(roots.back());
            }
            f.roots = std::move(now);
            onWatchState(f);
            emit scanFinished(key, {}, roots);
        });
}

void RemoteFolders::startWatch(Folder& f)
{
    f.watch = std::make_unique<RemoteWatch>(f.client.target(), f.client.options());
    f.watch->setBackoff(m_firstBackoffMs, m_maxBackoffMs);
    RemoteWatch* w = f.watch.get();
    const QString key = f.key;
    const QString prefix = f.prefix;
    auto root = [prefix](const QString& far) { return prefix + far; };
    connect(w, &RemoteWatch::stateChanged, this, [this, key] {
        if (Folder* at = find(key))
            onWatchState(*at);
        emit busyChanged();
    });
    connect(w, &RemoteWatch::resynced, this, [this, key] {
        if (Folder* at = find(key))
            scan(*at);
    });
    connect(w, &RemoteWatch::epochAdded, this,
            [this, root](const QString& far, const Epoch& e) { emit epochAdded(root(far), e); });
    connect(w, &RemoteWatch::epochRemoved, this,
            [this, root](const QString& far, int epoch) { emit epochRemoved(root(far), epoch); });
    connect(w, &RemoteWatch::linkChanged, this,
            [this, root](const QString& far, const QString& link, int epoch) {
                emit linkChanged(root(far), link, epoch);
            });
    // What has no typed signal: liveness verdicts, runs appearing or going
    // (the folder is read again), a run's head changing (that run is re-read).
    connect(w, &RemoteWatch::eventLine, this,
            [this, key, root](const QString& kind, const QString& far, const QByteArray& line) {
                Folder* at = find(key);
                if (!at || !at->scanned)
                    return;
                const QString r = root(far);
                if (kind.startsWith(QLatin1String("run_")) ||
                    kind == QLatin1String("save_finished"))
                    emit runsChanged(key);
                if (kind == QLatin1String("liveness")) {
                    const auto j = nlohmann::json::parse(line.toStdString(), nullptr, false);
                    if (j.is_object())
                        emit livenessChanged(r, liveStateNamed(j.value("liveness", "")));
                } else if (kind == QLatin1String("run_removed") ||
                           ((kind == QLatin1String("run_added") ||
                             kind == QLatin1String("run_found")) &&
                            !at->roots.count(r))) {
                    if (!at->scanner->isRunning())
                        scan(*at);
                } else if (kind == QLatin1String("run_changed") ||
                           kind == QLatin1String("save_started") ||
                           kind == QLatin1String("save_finished")) {
                    reload(r);
                }
            });
    w->start();
}

void RemoteFolders::onWatchState(Folder& f)
{
    if (!f.watch)
        return;
    const QString text = f.watch->message();
    switch (f.watch->state()) {
    case RemoteWatch::State::Idle:
    case RemoteWatch::State::Connecting:
        if (f.state != Connection::Reconnecting)
            setConnection(f, Connection::Connecting, text);
        return;
    case RemoteWatch::State::Connected:
        if (!f.scanned) {
            // Reachable again after a failed scan: read the folder now.
            if (!f.scanner->isRunning())
                scan(f);
            setConnection(
                f, Connection::Connecting,
                tr("connected to %1, reading the runs…").arg(qs(f.client.target().display())));
            return;
        }
        setConnection(f, Connection::Connected, text);
        return;
    case RemoteWatch::State::Reconnecting:
        setConnection(f, Connection::Reconnecting, text);
        return;
    case RemoteWatch::State::Failed:
        setConnection(f, Connection::Failed, text);
        return;
    }
}

void RemoteFolders::requestHistory(const QString& root)
{
    Folder* f = owner(root);
    if (!f)
        return;
    using History = Result<MetricHistory>;
    runner(m_histories, root)
        ->start<History>(
            [client = f->client, far = farRoot(*f, root)](const Progress&) -> History {
                auto json = client.history(far);
                if (!json)
                    return json.error();
                return RemoteResults::history(*json, client.target().url());
            },
            [this, root](History history) {
                if (!history) {
                    emit message(qs(history.error().message));
                    return;
                }
                emit historyReady(root, std::make_shared<MetricHistory>(std::move(*history)));
            });
}

void RemoteFolders::reload(const QString& root)
{
    Folder* f = owner(root);
    if (!f)
        return;
    using Scanned = Result<RunJsonReader::Scan>;
    const QString key = f->key;
    runner(m_reloads, root)
        ->start<Scanned>([client = f->client, far = farRoot(*f, root)](
                             const Progress& progress) { return client.scan(far, progress); },
                         [this, key, root](Scanned scanned) {
                             Folder* at = find(key);
                             if (!at)
                                 return;
                             if (!scanned) {
                                 emit message(qs(scanned.error().message));
                                 return;
                             }
                             for (std::size_t i = 0; i < scanned->runs.size(); ++i) {
                                 auto run = std::make_shared<Run>(std::move(scanned->runs[i]));
                                 run->root = (at->prefix + qs(run->root)).toStdString();
                                 if (!run->dir.empty())
                                     run->dir = (at->prefix + qs(run->dir)).toStdString();
                                 if (qs(run->root) == root)
                                     emit runLoaded(key, run, liveStateNamed(scanned->liveness[i]));
                             }
                         });
}

void RemoteFolders::relink(const QString& root, const QString& link, int epoch, bool announce)
{
    Folder* f = owner(root);
    if (!f)
        return;
    using Relinked = Result<RemoteCkpt::RelinkResult>;
    m_relinker->start<Relinked>(
        [client = f->client, far = farRoot(*f, root), link = link.toStdString(),
         epoch](const Progress&) { return client.relink(far, link, epoch); },
        [this, root, link, epoch, announce, host = qs(f->client.target().display())](Relinked r) {
            QString error;
            if (!r)
                error = qs(r.error().message);
            else if (r->confirmedByRescan && !r->applied)
                error = tr("The connection to %1 dropped before `%2` was moved; read back "
                           "afterwards, it was not changed (%2 -> %3). Try again.")
                            .arg(host, link,
                                 r->epoch ? QString::number(*r->epoch) : QStringLiteral("none"));
            else if (r->confirmedByRescan)
                emit message(tr("The connection to %1 dropped during the relink; read back "
                                "afterwards, %2 -> %3 was applied.")
                                 .arg(host, link)
                                 .arg(epoch));
            if (error.isEmpty() && announce && r->epoch == epoch &&
                (r->confirmedByRescan || r->moved.empty() || r->moved.front().changed))
                emit relinked(root, link, epoch);
            emit operationFinished(root, QStringLiteral("relink"), error);
        });
}

void RemoteFolders::verify(const std::map<QString, std::vector<int>>& epochs)
{
    if (isVerifying())
        return;
    struct Job
    {
        QString root;
        std::string far;
        RemoteCkpt client;
        std::vector<int> epochs; // empty: the whole run
    };
    std::vector<Job> jobs;
    for (const auto& [root, wanted] : epochs)
        if (Folder* f = owner(root))
            jobs.push_back({root, farRoot(*f, root), f->client, wanted});
    if (jobs.empty())
        return;
    struct Outcome
    {
        std::map<QString, VerifySession::Verdicts> verdicts;
        QStringList summaries;
        QString error;
    };
    emit verifyStarted(static_cast<int>(jobs.size()));
    m_verifier->start<Outcome>(
        [jobs](const Progress& progress) {
            Outcome out;
            for (const Job& job : jobs) {
                if (progress.cancelled())
                    break;
                auto json = job.client.verify(job.far, progress, job.epochs);
                auto read = json ? RemoteResults::verification(*json, job.client.target().url())
                                 : Result<RemoteResults::Verification>(json.error());
                if (!read) {
                    out.error = qs(read.error().message);
                    break;
                }
                for (auto& [far, verdicts] : read->verdicts)
                    out.verdicts[job.root] = std::move(verdicts);
                out.summaries << read->summary;
            }
            return out;
        },
        [this](Outcome out) {
            for (const auto& [root, found] : out.verdicts)
                emit verdicts(root, found);
            emit verifyFinished(out.error.isEmpty() ? out.summaries.join(QStringLiteral("; "))
                                                    : out.error);
        });
    connect(
        m_verifier, &JobRunner::finished, this,
        [this](quint64, bool cancelled) {
            if (cancelled)
                emit verifyFinished(tr("Remote verification cancelled."));
        },
        Qt::SingleShotConnection);
}

void RemoteFolders::cancelVerify()
{
    m_verifier->cancel();
}

bool RemoteFolders::isVerifying() const
{
    return m_verifier->isRunning();
}

} // namespace ckpt
