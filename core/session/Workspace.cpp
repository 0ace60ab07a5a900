#include "session/Workspace.h"

#include "layout/Layout.h"
#include "models/EpochTableModel.h"
#include "models/ProblemsModel.h"
#include "models/RunTreeModel.h"
#include "ops/Pruner.h"
#include "ops/Relinker.h"
#include "scan/Scanner.h"

#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QThreadPool>
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
      m_cancel(std::make_shared<std::atomic_bool>(false))
{
    m_pool->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    // Background work yields to the GUI thread.
    m_pool->setThreadPriority(QThread::LowPriority);
    m_problems->setRepairPredicate(&Workspace::isRepairable);
}

Workspace::~Workspace()
{
    m_cancel->store(true);
    // Workers post results to `this`; wait so none outlives it.
    m_pool->waitForDone();
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
    m_runs.clear();
    m_folders.clear();
    m_shown.clear();
    m_epochTable->clear();
    m_problems->clear();
    m_runTree->clear();
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
        // The outcome's runs die here, on the worker: freeing 100k epochs
        // would stall the GUI thread.
        result.runCount = static_cast<int>(outcome->runs.size());
        result.walkProblems = std::move(outcome->walkProblems);
        for (auto& r : outcome->runs)
            if (!delivered->count(r.root))
                result.undelivered.push_back(std::make_shared<Run>(std::move(r)));
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
    // Filled in when the history builder lands on main.
    (void)root;
}

void Workspace::applyHistory(const QString& root, quint64 generation,
                             std::shared_ptr<MetricHistory> history)
{
    auto it = m_runs.find(root);
    if (it == m_runs.end() || it->second.historyGeneration != generation)
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
    summary.live = s.live;
    summary.lastEpoch = s.run.last ? s.run.last->epoch : std::nullopt;
    summary.bestEpoch = s.run.best ? s.run.best->epoch : std::nullopt;
    bool first = true;
    for (const auto& e : s.run.epochs) {
        if (e.modelPath.empty())
            continue;
        ChecksumState st = ChecksumState::Unknown;
        if (auto c = s.checks.find(e.number); c != s.checks.end())
            st = c->second;
        else if (e.info && e.info->checksumDisabled())
            st = ChecksumState::Disabled;
        summary.checksum = first ? st : combineChecksumStates(summary.checksum, st);
        first = false;
    }
    m_runTree->upsertRun(summary);
}

bool Workspace::isRepairable(const Problem& problem)
{
    // Only a relocated link has a repair that cannot lose anything: it is
    // re-pointed, relative, at the local epoch it already resolves to.
    if (problem.kind != ProblemKind::RelocatedLink)
        return false;
    const QString name = QFileInfo(QString::fromStdString(problem.path)).fileName();
    return name == QLatin1String("last") || name == QLatin1String("best");
}

template <typename Work>
void Workspace::runOperation(const QString& root, const QString& action, Work work)
{
    ++m_pendingJobs;
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, root, action] {
        watcher->deleteLater();
        --m_pendingJobs;
        const QString error = watcher->result();
        emit operationFinished(root, action, error);
        emit message(error.isEmpty() ? tr("%1: done (%2)").arg(action, runName(root)) : error);
        reloadRun(root);
    });
    watcher->setFuture(QtConcurrent::run(m_pool, std::move(work)));
}

void Workspace::relink(const QString& root, const QString& link, int epoch, bool announce)
{
    runOperation(root, QStringLiteral("relink"), [this, root, link, epoch, announce] {
        auto r = Relinker::relink(root.toStdString(), link.toStdString(), epoch);
        if (!r)
            return QString::fromStdString(r.error().message);
        if (!announce)
            return QString();
        QMetaObject::invokeMethod(
            this, [this, root, link, epoch] { emit relinked(root, link, epoch); },
            Qt::QueuedConnection);
        return QString();
    });
}

void Workspace::undoRelink(const QString& root)
{
    runOperation(root, QStringLiteral("undo"), [root] {
        auto r = Relinker::undo(root.toStdString());
        return r ? QString() : QString::fromStdString(r.error().message);
    });
}

void Workspace::repairLink(const QString& root, const QString& link)
{
    runOperation(root, QStringLiteral("repair"), [root, link] {
        auto r = Relinker::repair(root.toStdString(), link.toStdString());
        return r ? QString() : QString::fromStdString(r.error().message);
    });
}

void Workspace::prune(const QString& root, const KeepPolicy& policy)
{
    const Run* current = run(root);
    if (!current)
        return;
    // The worker plans on its own copy: the GUI's run may be replaced meanwhile.
    runOperation(root, QStringLiteral("prune"), [snapshot = *current, policy] {
        const PrunePlan plan = Pruner::plan(snapshot, policy);
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
