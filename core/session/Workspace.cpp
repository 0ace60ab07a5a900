#include "session/Workspace.h"

#include "checksum/Verifier.h"
#include "layout/Layout.h"
#include "liveness/LivenessMonitor.h"
#include "models/EpochTableModel.h"
#include "models/ProblemsModel.h"
#include "models/RunTreeModel.h"
#include "report/Format.h"
#include "session/HistoryService.h"
#include "session/RemoteFolders.h"
#include "session/RemoteOperations.h"
#include "session/ReverifyQueue.h"
#include "session/RunOperations.h"
#include "session/ScanController.h"
#include "watch/RunWatcher.h"

#include <QDir>
#include <QStandardPaths>
#include <QThread>
#include <QThreadPool>

#include <mutex>

namespace ckpt {

Workspace::Workspace(QObject* parent)
    : QObject(parent), m_runTree(new RunTreeModel(this)), m_epochTable(new EpochTableModel(this)),
      m_problems(new ProblemsModel(this)), m_pool(new QThreadPool(this)),
      m_operations(new RunOperations(m_pool, this))
{
    m_pool->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    // Background work yields to the GUI thread.
    m_pool->setThreadPriority(QThread::LowPriority);
    m_problems->setRepairPredicate(&RunOperations::isRepairable);
    startWatcher();
    // The watcher adopts a scan's runs (no reload) and frees them on its
    // thread: freeing 100k epochs would stall the GUI thread.
    m_scans = new ScanController(
        m_pool,
        [watcher = m_watcher, liveness = m_liveness](const QString& folder, std::vector<Run> runs) {
            auto known = std::make_shared<std::vector<Run>>(std::move(runs));
            QMetaObject::invokeMethod(
                watcher,
                [watcher, liveness, folder, known]() mutable {
                    watcher->addFolder(folder, *known);
                    for (const Run& r : *known)
                        liveness->track(r);
                    known->clear();
                    // Let go here: when this call ends before invokeMethod returns
                    // on the scan's thread, that thread's own `known` is the last
                    // and its release is ordered after clear() only by Qt's
                    // reference count on this functor, which ThreadSanitizer cannot
                    // see (Debian's Qt is not instrumented); it reported the
                    // emptied vector's destruction there as racing with clear().
                    known.reset();
                },
                Qt::QueuedConnection);
        },
        this);
    m_history = new HistoryService(m_pool, this);
    m_verify = new VerifySession(
        m_pool, [this](const QString& root) { return run(root); }, this);
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (!cache.isEmpty())
        m_verify->setStorePath(cache + QStringLiteral("/verify-cache.json"));
    m_reverify = new ReverifyQueue(this);
    m_remote = new RemoteFolders(m_pool, this);
    m_remoteOps = new RemoteOperations(m_remote, m_pool, this);
    connectParts();
    connectWatcher();
    connectRemote();
}

Workspace::~Workspace()
{
    // Parts post results to `this`: stop them while it is whole.
    m_scans->cancelAll();
    m_history->clear();
    m_verify->cancel();
    // What the parts signal while they are deleted must not reach this half
    // destroyed object (closing the remote folders signalled busyChanged into
    // checkIdle, which asked the deleted RemoteOperations: UBSan found it).
    for (QObject* part :
         std::initializer_list<QObject*>{m_scans, m_history, m_verify, m_remote, m_remoteOps})
        part->disconnect(this);
    delete m_remoteOps;
    delete m_remote;
    delete m_verify;
    delete m_history;
    delete m_scans;
    m_pool->waitForDone();
    RunWatcher* watcher = m_watcher;
    LivenessMonitor* liveness = m_liveness;
    QMetaObject::invokeMethod(
        watcher,
        [watcher, liveness] {
            delete liveness;
            delete watcher;
        },
        Qt::BlockingQueuedConnection);
    m_watchThread->quit();
    m_watchThread->wait();
}

// The watcher and the liveness monitor live on their own thread: their walks,
// reloads and stats are file I/O. They are built there so that their timers
// belong to that thread.
void Workspace::startWatcher()
{
    m_watchThread = new QThread(this);
    m_watchThread->setObjectName(QStringLiteral("ckpt-watch"));
    m_watchThread->start();
    auto* anchor = new QObject;
    anchor->moveToThread(m_watchThread);
    // This thread reads m_watcher and m_liveness once the blocking call has
    // returned, but that wait is a QSemaphore on a futex, which ThreadSanitizer
    // cannot see (Debian's Qt is not instrumented): the mutex makes the handoff
    // visible to it (scripts/test.sh --tsan) and costs one lock here. Static,
    // so that its own initialisation is not published through Qt's queue.
    static std::mutex handoff;
    QMetaObject::invokeMethod(
        anchor,
        [this] {
            std::lock_guard lock(handoff);
            m_watcher = new RunWatcher;
            m_liveness = new LivenessMonitor;
            m_liveness->follow(m_watcher);
        },
        Qt::BlockingQueuedConnection);
    std::lock_guard lock(handoff);
    anchor->deleteLater();
}

void Workspace::flushWatcher()
{
    QMetaObject::invokeMethod(
        m_watcher, [w = m_watcher] { w->flush(); }, Qt::BlockingQueuedConnection);
}

void Workspace::connectParts()
{
    connect(m_operations, &RunOperations::relinked, this, &Workspace::relinked);
    connect(m_operations, &RunOperations::finished, this, &Workspace::onOperationFinished);
    connect(m_scans, &ScanController::scanStarted, this, [this](const QString& folder) {
        emit scanStarted(folder);
        emit message(tr("Scanning %1…").arg(folder));
    });
    connect(m_scans, &ScanController::runLoaded, this, &Workspace::applyLoadedRun);
    connect(m_scans, &ScanController::runReloaded, this,
            [this](const QString& root, std::shared_ptr<Run> run) {
                if (const RunState* s = state(root))
                    applyLoadedRun(s->folder, std::move(run));
            });
    connect(m_scans, &ScanController::scanFinished, this,
            [this](const QString& folder, const QString& error, int count,
                   const Problems& walkProblems) {
                if (!walkProblems.empty())
                    m_problems->setProblems(folder, QDir(folder).dirName(), walkProblems);
                emit scanFinished(folder, error, count);
                emit message(error.isEmpty() ? summaryText(folder, count) : error);
            });
    connect(m_scans, &ScanController::allScansFinished, this, &Workspace::allScansFinished);
    connect(m_history, &HistoryService::ready, this, &Workspace::onHistory);
    connect(m_verify, &VerifySession::verdicts, this, &Workspace::onVerdicts);
    connect(m_verify, &VerifySession::started, this, &Workspace::verifyStarted);
    connect(m_verify, &VerifySession::progress, this, &Workspace::verifyProgress);
    connect(m_verify, &VerifySession::finished, this, [this](const QString& summary) {
        emit verifyFinished(summary);
        emit message(summary);
        if (auto next = std::exchange(m_remoteVerifyNext, {}); !next.empty())
            verifyRemote(next);
        else
            reverifyChanged();
    });
    connect(m_reverify, &ReverifyQueue::due, this, &Workspace::reverifyChanged);
    connect(m_verify, &VerifySession::storeLoaded, this, [this](const QString& error) {
        if (!error.isEmpty())
            emit message(error);
        // Runs that loaded before the remembered verdicts did get them now.
        for (auto& [root, s] : m_registry.all())
            if (auto known =
                    isRemote(root) ? VerifySession::Verdicts{} : m_verify->remembered(s.run);
                !known.empty())
                onVerdicts(root, known);
    });
    connect(m_scans, &ScanController::busyChanged, this, &Workspace::checkIdle);
    connect(m_history, &HistoryService::busyChanged, this, &Workspace::checkIdle);
    connect(m_verify, &VerifySession::busyChanged, this, &Workspace::checkIdle);
}

void Workspace::connectWatcher()
{
    connect(m_watcher, &RunWatcher::runAdded, this, [this](const Run& run) {
        const QString folder = m_registry.folderOf(QString::fromStdString(run.root));
        if (!folder.isEmpty())
            applyLoadedRun(folder, std::make_shared<Run>(run));
    });
    connect(m_watcher, &RunWatcher::runRemoved, this, &Workspace::removeRun);
    connect(m_watcher, &RunWatcher::epochAdded, this, &Workspace::onWatchedEpoch);
    connect(m_watcher, &RunWatcher::epochChanged, this, &Workspace::onWatchedEpoch);
    connect(m_watcher, &RunWatcher::epochRemoved, this, &Workspace::onWatchedEpochRemoved);
    connect(m_watcher, &RunWatcher::runHeadChanged, this, &Workspace::onWatchedHead);
    // A log written after its epoch's checkpoint, or rewritten: the history again.
    connect(m_watcher, &RunWatcher::sourcesChanged, this, &Workspace::requestHistory);
    connect(m_liveness, &LivenessMonitor::changed, this, &Workspace::onLiveness);
}

void Workspace::openFolders(const QStringList& folders)
{
    for (const QString& f : folders) {
        if (RemoteFolders::looksRemote(f)) {
            openRemote(f, RemoteFolders::defaultOptions());
            continue;
        }
        const QString folder = QDir::cleanPath(QDir(f).absolutePath());
        if (!m_registry.addFolder(folder))
            continue;
        m_runTree->addFolder(folder);
        m_scans->scan(folder);
    }
}

void Workspace::closeAll()
{
    m_scans->cancelAll();
    m_history->clear();
    cancelVerify();
    const bool remote = !m_remote->folders().isEmpty();
    m_remote->closeAll();
    QMetaObject::invokeMethod(
        m_watcher,
        [w = m_watcher, l = m_liveness, folders = m_registry.folders(), roots = runRoots()] {
            for (const QString& f : folders)
                w->removeFolder(f);
            for (const QString& r : roots)
                l->forget(r);
        },
        Qt::QueuedConnection);
    m_registry.clear();
    m_shown.clear();
    m_epochTable->clear();
    m_problems->clear();
    m_runTree->clear();
    if (remote)
        emit remoteFoldersChanged();
}

bool Workspace::isScanning() const
{
    return m_scans->scansRunning() > 0;
}

bool Workspace::isIdle() const
{
    return !m_scans->isBusy() && !m_history->isBusy() && m_operations->pending() == 0 &&
           m_remoteOps->pending() == 0 && !m_verify->isVerifying() && !m_remote->isBusy();
}

void Workspace::checkIdle()
{
    const bool now = isIdle();
    if (now && !m_wasIdle)
        emit idle();
    m_wasIdle = now;
}

QStringList Workspace::runRoots() const
{
    return m_runTree->runRoots();
}

const Run* Workspace::run(const QString& root) const
{
    const RunState* s = state(root);
    return s ? &s->run : nullptr;
}

QString Workspace::summaryText(const QString& folder, int runs)
{
    return folder + QStringLiteral(": ") + QString::fromStdString(Format::counted(runs, "run"));
}

QString Workspace::folderSummary(const QString& folder) const
{
    int runs = 0;
    for (const auto& [root, s] : m_registry.all())
        runs += s.folder == folder;
    return summaryText(folder, runs);
}

QString Workspace::runName(const QString& root) const
{
    const RunState* s = state(root);
    return s ? RunTreeModel::displayName(s->folder, root) : root;
}

void Workspace::applyLoadedRun(const QString& folder, std::shared_ptr<Run> run)
{
    const QString root = QString::fromStdString(run->root);
    bool added = false;
    RunState& s = m_registry.upsert(root, folder, added);
    s.run = std::move(*run);
    // The loader assessed liveness itself; once the monitor has spoken, it rules.
    if (!added)
        Liveness::settle(s.run, s.live);
    // Remembered verdicts hold only for files unchanged since; a verification
    // under way keeps its "verifying".
    std::erase_if(s.checks,
                  [](const auto& c) { return c.second.state != ChecksumState::Verifying; });
    // A remote run's files are not here: nothing remembered holds for them.
    if (!isRemote(root))
        for (auto& [number, verdict] : m_verify->remembered(s.run))
            s.checks.try_emplace(number, std::move(verdict));
    publish(root);
    // A reload replaces the run wholesale; keep the other shown runs.
    if (m_epochTable->showsRun(root))
        showRuns(m_shown);
    requestHistory(root);
    if (added)
        emit runAdded(root);
    else
        emit runChanged(root);
}

void Workspace::removeRun(const QString& root)
{
    const RunState* s = state(root);
    const QString folder = s ? s->folder : QString();
    if (!m_registry.erase(root))
        return;
    m_history->forget(root);
    m_reverify->forget(root);
    m_runTree->removeRun(root);
    m_problems->removeRun(root);
    if (m_shown.contains(root)) {
        m_shown.removeAll(root);
        showRuns(m_shown);
    }
    emit runRemoved(root, folder);
}

void Workspace::reloadRun(const QString& root)
{
    if (isRemote(root))
        m_remote->reload(root);
    else if (const RunState* s = state(root))
        m_scans->reload(root, s->run.layout);
}

void Workspace::showRuns(const QStringList& roots)
{
    std::vector<const Run*> runs;
    QStringList names;
    QStringList shown;
    for (const QString& root : roots) {
        if (const RunState* s = state(root)) {
            runs.push_back(&s->run);
            names << runName(root);
            shown << root;
        }
    }
    m_shown = shown;
    m_epochTable->setRuns(runs, names);
    for (const QString& root : shown) {
        const RunState& s = *state(root);
        if (s.history)
            m_epochTable->setHistory(root, s.history);
        if (!s.checks.empty())
            m_epochTable->setChecksumStates(root, s.checksumStates(), s.checksumNotes());
    }
}

void Workspace::onOperationFinished(const QString& root, const QString& action,
                                    const QString& error)
{
    emit operationFinished(root, action, error);
    emit message(error.isEmpty() ? tr("%1: done (%2)").arg(action, runName(root)) : error);
    reloadRun(root);
    checkIdle();
}

void Workspace::onHistory(const QString& root, const std::shared_ptr<MetricHistory>& history)
{
    RunState* s = m_registry.find(root);
    if (!s || !history)
        return;
    s->history = history;
    m_epochTable->setHistory(root, s->history);
    emit historyChanged(root);
}

void Workspace::requestHistory(const QString& root)
{
    if (isRemote(root))
        m_remote->requestHistory(root);
    else if (const RunState* s = state(root))
        m_history->request(root, std::make_shared<const Run>(s->run));
}

void Workspace::publish(const QString& root)
{
    const RunState* s = state(root);
    if (!s)
        return;
    m_problems->setProblems(root, runName(root), s->problems());
    refreshSummary(root);
}

void Workspace::refreshSummary(const QString& root)
{
    const RunState& s = *state(root);
    RunSummary summary;
    summary.root = root;
    summary.folder = s.folder;
    summary.epochs = static_cast<int>(s.run.epochs.size());
    summary.diskBytes = s.run.totalModelBytes();
    summary.problems = static_cast<int>(s.problems().size());
    summary.live = s.live == LiveState::Live;
    summary.lastEpoch = s.run.linkedEpoch("last");
    summary.bestEpoch = s.run.linkedEpoch("best");
    if (m_remote->contains(s.folder)) {
        summary.host = m_remote->host(s.folder);
        summary.stale = m_remote->staleLabel(s.folder);
        summary.staleWhy = m_remote->connectionMessage(s.folder);
        // Not connected: whether a trainer writes it now is unknown.
        summary.live = summary.live && summary.stale.isEmpty();
    }
    bool first = true;
    for (const auto& e : s.run.epochs) {
        if (!e.hasModel())
            continue;
        ChecksumState st = ChecksumState::Unknown;
        if (auto c = s.checks.find(e.number); c != s.checks.end())
            st = c->second.state;
        else if (const EpochFile* f = e.checksummedFile(); f && f->algo == ChecksumAlgo::Disabled)
            st = ChecksumState::Disabled;
        else if (Verifier::recordsNoChecksum(s.run, e))
            st = ChecksumState::NoChecksum;
        summary.checksum = first ? st : combineChecksumStates(summary.checksum, st);
        first = false;
    }
    m_runTree->upsertRun(summary);
}

void Workspace::verify(const std::map<QString, std::vector<int>>& epochs)
{
    if (isVerifying())
        return;
    // Remote runs are verified next to their data by the far ckpt.
    std::map<QString, std::vector<int>> local;
    std::map<QString, std::vector<int>> remote;
    for (const auto& [root, wanted] : epochs)
        (isRemote(root) ? remote : local)[root] = wanted;
    // Both: the local runs first, the remote ones when they are done.
    m_remoteVerifyNext = local.empty() ? decltype(remote){} : remote;
    if (!local.empty())
        m_verify->verify(local);
    else if (!remote.empty())
        verifyRemote(remote);
}

void Workspace::cancelVerify()
{
    m_remoteVerifyNext.clear();
    m_verify->cancel();
    m_remote->cancelVerify();
}

bool Workspace::isVerifying() const
{
    return m_verify->isVerifying() || m_remote->isVerifying();
}

void Workspace::onVerdicts(const QString& root, const VerifySession::Verdicts& verdicts)
{
    RunState* s = m_registry.find(root);
    if (!s)
        return;
    std::map<int, ChecksumState> states;
    std::map<int, QString> notes;
    for (const auto& [epoch, v] : verdicts) {
        if (v.state == ChecksumState::Unknown)
            s->checks.erase(epoch);
        else
            s->checks[epoch] = v;
        states[epoch] = v.state;
        notes[epoch] = checksumNote(v);
        // A file that was fine, changed behind our back, and is bad now: loud.
        const bool bad = v.state == ChecksumState::Mismatch || v.state == ChecksumState::Error ||
                         v.state == ChecksumState::Missing;
        // "verifying" comes first; the verdict after it answers the re-verification.
        if (ReverifyQueue::isVerdict(v.state) && m_reverify->answers(root, epoch) && bad) {
            const Epoch* e = s->run.findEpoch(epoch);
            const QString path = e ? QString::fromStdString(s->run.modelPath(*e)) : root;
            emit alert(tr("%1 changed on disk since it was verified: %2 (%3)")
                           .arg(path, checksumStateLabel(v.state), checksumNote(v)));
        }
    }
    m_epochTable->setChecksumStates(root, states, notes);
    publish(root);
}

void Workspace::reverifyChanged()
{
    if (!m_reverify->hasWaiting() || isVerifying())
        return; // VerifySession::finished calls again
    std::map<QString, std::vector<int>> due = m_reverify->take();
    std::erase_if(due, [this](const auto& d) { return !state(d.first); });
    if (!due.empty())
        m_verify->verify(due);
}

void Workspace::onWatchedEpoch(const QString& root, const Epoch& epoch)
{
    RunState* s = m_registry.find(root);
    if (!s)
        return;
    if (Epoch* known = s->run.editEpoch(epoch.number)) {
        *known = epoch;
    } else {
        const EpochList& epochs = s->run.epochs;
        auto pos = std::lower_bound(epochs.begin(), epochs.end(), epoch.number,
                                    [](const Epoch& e, int n) { return e.number < n; });
        s->run.epochs.insert(pos, epoch);
    }
    // A rewritten epoch's old verdict no longer holds: a file that had one is
    // "changed since verified" and verified again, alone, once it settles.
    auto old = s->checks.find(epoch.number);
    const bool hadVerdict = old != s->checks.end() && ReverifyQueue::isVerdict(old->second.state);
    s->checks.erase(epoch.number);
    m_epochTable->upsertEpoch(root, s->run, epoch);
    if (hadVerdict && !isRemote(root)) {
        s->checks[epoch.number] = ChecksumVerdict{ChecksumState::Changed, {}, {}};
        m_epochTable->setChecksumStates(root, {{epoch.number, ChecksumState::Changed}}, {});
        m_reverify->add(root, epoch.number);
    }
    publish(root);
    requestHistory(root);
    emit epochAdded(root, epoch.number);
}

void Workspace::onWatchedEpochRemoved(const QString& root, int epoch)
{
    RunState* s = m_registry.find(root);
    if (!s)
        return;
    s->run.epochs.eraseIf([epoch](const Epoch& e) { return e.number == epoch; });
    s->checks.erase(epoch);
    m_epochTable->removeEpoch(root, epoch);
    publish(root);
    emit runChanged(root);
}

// Links, work/ and the run-level problems, as the watcher now sees them.
void Workspace::onWatchedHead(const Run& head)
{
    const QString root = QString::fromStdString(head.root);
    RunState* s = m_registry.find(root);
    if (!s)
        return;
    Run& run = s->run;
    run.links = head.links;
    run.sources = head.sources;
    run.inProgress = head.inProgress;
    run.problems = head.problems;
    Liveness::settle(run, s->live);
    m_epochTable->updateLinks(root, run);
    publish(root);
    emit runChanged(root);
}

void Workspace::onLiveness(const QString& root, LiveState state)
{
    RunState* s = m_registry.find(root);
    if (!s)
        return;
    s->live = state;
    Liveness::settle(s->run, state);
    publish(root);
    emit livenessChanged(root, state);
}

} // namespace ckpt
