#include "session/Workspace.h"

#include "layout/Layout.h"
#include "models/EpochTableModel.h"
#include "models/ProblemsModel.h"
#include "models/RunTreeModel.h"
#include "scan/Scanner.h"
#include "session/RunOperations.h"
#include "session/VerifyJob.h"
#include "watch/RunWatcher.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QThread>
#include <QThreadPool>
#include <QTimer>
#include <QtConcurrent>

#include <set>

namespace ckpt {

namespace {
struct ScanResult
{
    QString error;
    int runCount = 0;
    Problems walkProblems;
    // Runs the callback did not deliver (none, normally).
    std::vector<std::shared_ptr<Run>> undelivered;
};
} // namespace

Workspace::Workspace(QObject* parent)
    : QObject(parent), m_runTree(new RunTreeModel(this)), m_epochTable(new EpochTableModel(this)),
      m_problems(new ProblemsModel(this)), m_pool(new QThreadPool(this)),
      m_operations(new RunOperations(m_pool, this)),
      m_cancel(std::make_shared<std::atomic_bool>(false))
{
    m_pool->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    // Background work yields to the GUI thread.
    m_pool->setThreadPriority(QThread::LowPriority);
    m_problems->setRepairPredicate(&RunOperations::isRepairable);
    connect(m_operations, &RunOperations::relinked, this, &Workspace::relinked);
    connect(m_operations, &RunOperations::finished, this,
            [this](const QString& root, const QString& action, const QString& error) {
                emit operationFinished(root, action, error);
                emit message(error.isEmpty() ? tr("%1: done (%2)").arg(action, runName(root))
                                             : error);
                reloadRun(root);
            });

    // The watcher lives on its own thread: its walks and reloads are file I/O.
    // It is built there so that its timers belong to that thread.
    m_watchThread = new QThread(this);
    m_watchThread->setObjectName(QStringLiteral("ckpt-watch"));
    m_watchThread->start();
    auto* anchor = new QObject;
    anchor->moveToThread(m_watchThread);
    QMetaObject::invokeMethod(
        anchor, [this] { m_watcher = new RunWatcher; }, Qt::BlockingQueuedConnection);
    anchor->deleteLater();
    connectWatcher();

    // A run stops being "live" a while after its last new epoch.
    auto* liveTimer = new QTimer(this);
    liveTimer->setInterval(5000);
    connect(liveTimer, &QTimer::timeout, this, [this] {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (auto& [root, s] : m_runs)
            if (s.live && !s.saving && now - s.lastChangeMs > 60000)
                setLive(root, false);
    });
    liveTimer->start();
}

Workspace::~Workspace()
{
    m_cancel->store(true);
    // Workers post results to `this`; wait so none outlives it.
    delete m_verifyJob;
    m_pool->waitForDone();
    RunWatcher* watcher = m_watcher;
    QMetaObject::invokeMethod(
        watcher, [watcher] { delete watcher; }, Qt::BlockingQueuedConnection);
    m_watchThread->quit();
    m_watchThread->wait();
}

void Workspace::openFolders(const QStringList& folders)
{
    for (const QString& f : folders) {
        const QString folder = QDir::cleanPath(QDir(f).absolutePath());
        if (m_folders.contains(folder))
            continue;
        m_folders << folder;
        m_runTree->addFolder(folder);
        scanFolder(folder);
    }
}

void Workspace::closeAll()
{
    m_cancel->store(true);
    m_cancel = std::make_shared<std::atomic_bool>(false);
    ++m_generation;
    m_activeScans = 0;
    cancelVerify();
    QMetaObject::invokeMethod(
        m_watcher,
        [w = m_watcher, folders = m_folders] {
            for (const QString& f : folders)
                w->removeFolder(f);
        },
        Qt::QueuedConnection);
    m_runs.clear();
    m_folders.clear();
    m_shown.clear();
    m_epochTable->clear();
    m_problems->clear();
    m_runTree->clear();
}

bool Workspace::isIdle() const
{
    return m_activeScans == 0 && m_pendingJobs == 0 && m_operations->pending() == 0 && !m_verifyJob;
}

QStringList Workspace::folders() const
{
    return m_folders;
}

QStringList Workspace::runRoots() const
{
    return m_runTree->runRoots();
}

const Workspace::RunState* Workspace::state(const QString& root) const
{
    auto it = m_runs.find(root);
    return it == m_runs.end() ? nullptr : &it->second;
}

const Run* Workspace::run(const QString& root) const
{
    const RunState* s = state(root);
    return s ? &s->run : nullptr;
}

QString Workspace::runName(const QString& root) const
{
    const RunState* s = state(root);
    return s ? RunTreeModel::displayName(s->folder, root) : root;
}

void Workspace::scanFolder(const QString& folder)
{
    ++m_activeScans;
    emit scanStarted(folder);
    emit message(tr("Scanning %1…").arg(folder));
    const quint64 generation = m_generation;
    auto cancel = m_cancel;
    auto* watcher = new QFutureWatcher<ScanResult>(this);
    connect(
        watcher, &QFutureWatcher<ScanResult>::finished, this, [this, watcher, folder, generation] {
            watcher->deleteLater();
            if (generation != m_generation)
                return;
            const ScanResult result = watcher->result();
            const int count = result.runCount;
            for (const auto& r : result.undelivered)
                applyLoadedRun(generation, folder, r);
            if (!result.walkProblems.empty())
                m_problems->setProblems(folder, QDir(folder).dirName(), result.walkProblems);
            --m_activeScans;
            emit scanFinished(folder, result.error, count);
            emit message(result.error.isEmpty() ? tr("%1: %n run(s)", nullptr, count).arg(folder)
                                                : result.error);
            if (m_activeScans == 0)
                emit allScansFinished();
        });
    watcher->setFuture(QtConcurrent::run(m_pool, [this, folder, generation, cancel] {
        const Progress progress({}, cancel.get());
        auto delivered = std::make_shared<std::set<std::string>>();
        auto onRun = [this, folder, generation, delivered](const Run& loaded) {
            delivered->insert(loaded.root);
            auto copy = std::make_shared<Run>(loaded);
            QMetaObject::invokeMethod(
                this,
                [this, folder, generation, copy] { applyLoadedRun(generation, folder, copy); },
                Qt::QueuedConnection);
        };
        // Leave a core to the GUI thread so it never waits for one.
        Scanner::Options options;
        options.threads = std::max(1, QThread::idealThreadCount() - 1);
        auto outcome = Scanner::scan(folder.toStdString(), options, progress, onRun);
        ScanResult result;
        if (!outcome) {
            result.error = QString::fromStdString(outcome.error().message);
            return result;
        }
        result.runCount = static_cast<int>(outcome->runs.size());
        result.walkProblems = std::move(outcome->walkProblems);
        for (auto& r : outcome->runs)
            if (!delivered->count(r.root))
                result.undelivered.push_back(std::make_shared<Run>(r));
        if (!cancel->load()) {
            // The watcher adopts the loaded runs (no reload) and frees them on
            // its thread: freeing 100k epochs would stall the GUI thread.
            auto known = std::make_shared<std::vector<Run>>(std::move(outcome->runs));
            RunWatcher* runWatcher = m_watcher;
            QMetaObject::invokeMethod(
                runWatcher,
                [runWatcher, folder, known] {
                    runWatcher->addFolder(folder, *known);
                    known->clear();
                },
                Qt::QueuedConnection);
        }
        return result;
    }));
}

void Workspace::applyLoadedRun(quint64 generation, const QString& folder, std::shared_ptr<Run> run)
{
    if (generation != m_generation)
        return;
    const QString root = QString::fromStdString(run->root);
    auto [it, added] = m_runs.try_emplace(root);
    RunState& state = it->second;
    if (added)
        state.folder = folder;
    state.run = std::move(*run);
    refreshSummary(root);
    m_problems->setProblems(root, runName(root), state.run.allProblems());
    // A reload replaces the run wholesale; keep the other shown runs.
    if (m_epochTable->showsRun(root))
        showRuns(m_shown);
    scheduleHistory(root);
    if (added)
        emit runAdded(root);
    else
        emit runChanged(root);
}

void Workspace::reloadRun(const QString& root)
{
    const RunState* s = state(root);
    if (!s)
        return;
    const QString folder = s->folder;
    const quint64 generation = m_generation;
    const std::string layoutName = s->run.layout;
    ++m_pendingJobs;
    auto* watcher = new QFutureWatcher<std::shared_ptr<Run>>(this);
    connect(watcher, &QFutureWatcher<std::shared_ptr<Run>>::finished, this,
            [this, watcher, folder, generation] {
                watcher->deleteLater();
                --m_pendingJobs;
                if (auto loaded = watcher->result())
                    applyLoadedRun(generation, folder, loaded);
            });
    watcher->setFuture(QtConcurrent::run(m_pool, [root, layoutName]() -> std::shared_ptr<Run> {
        const Layout* layout = findLayout(layoutName);
        if (!layout)
            return nullptr;
        return std::make_shared<Run>(layout->loadRun(root.toStdString()));
    }));
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
        const RunState& s = m_runs.at(root);
        if (s.history)
            m_epochTable->setHistory(root, *s.history);
        if (!s.checks.empty())
            m_epochTable->setChecksumStates(root, s.checks);
    }
}

void Workspace::scheduleHistory(const QString& root)
{
    auto it = m_runs.find(root);
    if (it == m_runs.end())
        return;
    RunState& s = it->second;
    // One merge per run at a time; changes meanwhile ask for one more.
    if (s.historyRunning) {
        s.historyDirty = true;
        return;
    }
    s.historyRunning = true;
    s.historyDirty = false;
    static quint64 counter = 0;
    const quint64 generation = s.historyGeneration = ++counter;
    ++m_pendingJobs;
    auto snapshot = std::make_shared<Run>(s.run);
    using Watcher = QFutureWatcher<std::shared_ptr<MetricHistory>>;
    auto* watcher = new Watcher(this);
    connect(watcher, &Watcher::finished, this, [this, watcher, root, generation] {
        watcher->deleteLater();
        --m_pendingJobs;
        auto found = m_runs.find(root);
        if (found == m_runs.end() || found->second.historyGeneration != generation)
            return;
        found->second.historyRunning = false;
        applyHistory(root, generation, watcher->result());
        if (found->second.historyDirty)
            scheduleHistory(root);
    });
    watcher->setFuture(QtConcurrent::run(m_pool, [snapshot] {
        auto history = std::make_shared<MetricHistory>(historyOf(*snapshot));
        return history;
    }));
}

void Workspace::applyHistory(const QString& root, quint64 generation,
                             std::shared_ptr<MetricHistory> history)
{
    auto it = m_runs.find(root);
    if (it == m_runs.end() || it->second.historyGeneration != generation || !history)
        return;
    it->second.history = std::move(*history);
    m_epochTable->setHistory(root, *it->second.history);
    emit historyChanged(root);
}

void Workspace::refreshSummary(const QString& root)
{
    const RunState& s = m_runs.at(root);
    RunSummary summary;
    summary.root = root;
    summary.folder = s.folder;
    summary.epochs = static_cast<int>(s.run.epochs.size());
    summary.diskBytes = s.run.totalModelBytes();
    summary.problems = static_cast<int>(s.run.allProblems().size());
    summary.live = s.live || s.saving;
    summary.lastEpoch = s.run.linkedEpoch("last");
    summary.bestEpoch = s.run.linkedEpoch("best");
    bool first = true;
    for (const auto& e : s.run.epochs) {
        if (!e.hasModel())
            continue;
        ChecksumState st = ChecksumState::Unknown;
        if (auto c = s.checks.find(e.number); c != s.checks.end())
            st = c->second;
        else if (const EpochFile* f = e.checksummedFile(); f && f->algo == ChecksumAlgo::Disabled)
            st = ChecksumState::Disabled;
        summary.checksum = first ? st : combineChecksumStates(summary.checksum, st);
        first = false;
    }
    m_runTree->upsertRun(summary);
}

void Workspace::verify(const std::map<QString, std::vector<int>>& epochs)
{
    if (isVerifying())
        return;
    m_verifyQueue.assign(epochs.begin(), epochs.end());
    m_verifyRuns.clear();
    m_verifyCount = 0;
    m_verifyPhase = VerifyPhase::Preparing;
    prepareVerifyBatch();
}

void Workspace::prepareVerifyBatch()
{
    if (m_verifyPhase != VerifyPhase::Preparing)
        return;
    // A few runs per pass of the event loop: copying 100k epochs at once
    // would stall the GUI thread.
    for (int n = 0; n < VerifyBatch && !m_verifyQueue.empty(); ++n) {
        auto [root, wanted] = std::move(m_verifyQueue.back());
        m_verifyQueue.pop_back();
        const RunState* s = state(root);
        if (!s)
            continue;
        Run copy = VerifyJob::slimCopy(s->run, wanted);
        std::map<int, ChecksumState> verifying;
        std::vector<int> numbers;
        for (const auto& e : copy.epochs) {
            verifying[e.number] = ChecksumState::Verifying;
            numbers.push_back(e.number);
        }
        m_verifyCount += static_cast<int>(numbers.size());
        m_verifying[root] = std::move(numbers);
        setChecks(root, verifying);
        m_verifyRuns.push_back(std::move(copy));
    }
    if (!m_verifyQueue.empty()) {
        QTimer::singleShot(0, this, &Workspace::prepareVerifyBatch);
        return;
    }
    if (m_verifyRuns.empty()) {
        m_verifyPhase = VerifyPhase::Idle;
        return;
    }
    m_verifyPhase = VerifyPhase::Running;
    m_verifyJob = new VerifyJob(std::move(m_verifyRuns), m_pool, this);
    m_verifyRuns.clear();
    connect(m_verifyJob, &VerifyJob::progress, this, &Workspace::verifyProgress);
    connect(m_verifyJob, &VerifyJob::finished, this, &Workspace::applyVerifyReport);
    emit verifyStarted(m_verifyCount);
    m_verifyJob->start();
}

void Workspace::cancelVerify()
{
    if (m_verifyJob) {
        m_verifyJob->cancel();
    } else if (m_verifyPhase == VerifyPhase::Preparing) {
        m_verifyQueue.clear();
        m_verifyRuns.clear();
        auto outcome = std::make_shared<VerifyJob::Outcome>();
        outcome->summary = tr("Verification cancelled");
        applyVerifyReport(outcome);
    }
}

void Workspace::applyVerifyReport(std::shared_ptr<VerifyJob::Outcome> outcome)
{
    m_verifyJob = nullptr;
    m_verifyPhase = VerifyPhase::Applying;
    // In batches too: 100k verdicts would stall the GUI thread.
    for (int n = 0; n < VerifyBatch && !outcome->states.empty(); ++n) {
        auto node = outcome->states.extract(outcome->states.begin());
        setChecks(node.key(), node.mapped());
        m_verifying.erase(node.key());
    }
    if (!outcome->states.empty()) {
        QTimer::singleShot(0, this, [this, outcome] { applyVerifyReport(outcome); });
        return;
    }
    // What was not reached (cancelled) goes back to "not verified".
    for (const auto& [root, numbers] : m_verifying) {
        std::map<int, ChecksumState> reset;
        for (int n : numbers)
            reset[n] = ChecksumState::Unknown;
        setChecks(root, reset);
    }
    m_verifying.clear();
    m_verifyPhase = VerifyPhase::Idle;
    emit verifyFinished(outcome->summary);
    emit message(outcome->summary);
}

void Workspace::setChecks(const QString& root, const std::map<int, ChecksumState>& checks)
{
    auto it = m_runs.find(root);
    if (it == m_runs.end())
        return;
    for (const auto& [epoch, st] : checks)
        it->second.checks[epoch] = st;
    m_epochTable->setChecksumStates(root, checks);
    refreshSummary(root);
}

void Workspace::connectWatcher()
{
    connect(m_watcher, &RunWatcher::runAdded, this, [this](const Run& run) {
        const QString root = QString::fromStdString(run.root);
        QString folder;
        for (const QString& f : m_folders)
            if (root.startsWith(f + QLatin1Char('/')) || root == f)
                folder = f;
        if (!folder.isEmpty())
            applyLoadedRun(m_generation, folder, std::make_shared<Run>(run));
    });
    connect(m_watcher, &RunWatcher::runRemoved, this, [this](const QString& root) {
        if (!m_runs.erase(root))
            return;
        m_runTree->removeRun(root);
        m_problems->removeRun(root);
        if (m_shown.contains(root)) {
            m_shown.removeAll(root);
            showRuns(m_shown);
        }
    });
    connect(m_watcher, &RunWatcher::epochAdded, this, &Workspace::onWatchedEpoch);
    connect(m_watcher, &RunWatcher::epochChanged, this, &Workspace::onWatchedEpoch);
    connect(m_watcher, &RunWatcher::epochRemoved, this, &Workspace::onWatchedEpochRemoved);
    connect(m_watcher, &RunWatcher::linkChanged, this, &Workspace::onWatchedLink);
    connect(m_watcher, &RunWatcher::saveInProgress, this, &Workspace::onWatchedSave);
}

void Workspace::onWatchedEpoch(const QString& root, const Epoch& epoch)
{
    auto it = m_runs.find(root);
    if (it == m_runs.end())
        return;
    RunState& s = it->second;
    auto& epochs = s.run.epochs;
    auto pos = std::lower_bound(epochs.begin(), epochs.end(), epoch.number,
                                [](const Epoch& e, int n) { return e.number < n; });
    if (pos != epochs.end() && pos->number == epoch.number)
        *pos = epoch;
    else
        epochs.insert(pos, epoch);
    // A rewritten epoch's old verdict no longer holds.
    s.checks.erase(epoch.number);
    s.lastChangeMs = QDateTime::currentMSecsSinceEpoch();
    s.live = true;
    m_epochTable->upsertEpoch(root, s.run, epoch);
    m_problems->setProblems(root, runName(root), s.run.allProblems());
    refreshSummary(root);
    scheduleHistory(root);
    emit epochAdded(root, epoch.number);
}

void Workspace::onWatchedEpochRemoved(const QString& root, int epoch)
{
    auto it = m_runs.find(root);
    if (it == m_runs.end())
        return;
    std::erase_if(it->second.run.epochs, [epoch](const Epoch& e) { return e.number == epoch; });
    it->second.checks.erase(epoch);
    m_epochTable->removeEpoch(root, epoch);
    m_problems->setProblems(root, runName(root), it->second.run.allProblems());
    refreshSummary(root);
    emit runChanged(root);
}

void Workspace::onWatchedLink(const QString& root, const RunLink& link)
{
    auto it = m_runs.find(root);
    if (it == m_runs.end())
        return;
    Run& run = it->second.run;
    // A removed link comes with no path.
    run.setLink(link.name, link.path.empty() ? std::nullopt : std::optional<RunLink>(link));
    m_epochTable->updateLinks(root, run);
    refreshSummary(root);
    emit runChanged(root);
}

void Workspace::onWatchedSave(const QString& root, bool inProgress)
{
    auto it = m_runs.find(root);
    if (it == m_runs.end())
        return;
    it->second.saving = inProgress;
    if (inProgress)
        it->second.live = true;
    refreshSummary(root);
}

void Workspace::setLive(const QString& root, bool live)
{
    auto it = m_runs.find(root);
    if (it == m_runs.end() || it->second.live == live)
        return;
    it->second.live = live;
    refreshSummary(root);
}

} // namespace ckpt
