#include "models/LaunchedRunsModel.h"

#include "jobs/JobRunner.h"
#include "launch/RunBranches.h"
#include "launch/RunNames.h"
#include "launch/RunSummary.h"
#include "models/ModelRoles.h"
#include "report/Format.h"

#include <QDateTime>

#include <utility>

namespace ckpt {

namespace {

const LaunchAttempt* latestOf(const Launcher::Listed& run)
{
    return run.record ? run.record->latest() : nullptr;
}

QString parentText(const LaunchAttempt& a, const QString& parentName)
{
    if (!a.plan.parent)
        return QStringLiteral("—");
    return QStringLiteral("%1 @ e%2 (%3)")
        .arg(parentName)
        .arg(a.plan.parent->epoch)
        .arg(QLatin1String(LaunchPlan::modeName(a.plan.mode)));
}

QDateTime localTime(const std::string& iso)
{
    return QDateTime::fromString(QString::fromStdString(iso), Qt::ISODate).toLocalTime();
}

} // namespace

LaunchedRunsModel::LaunchedRunsModel(LaunchRegistry registry, QObject* parent)
    : QAbstractTableModel(parent), m_launcher(std::move(registry)), m_runner(new JobRunner(this))
{
    m_poll.setSingleShot(true);
    connect(&m_poll, &QTimer::timeout, this, [this] {
        // A slow refresh is not cut short by the next tick; refresh() is.
        if (m_runner->isRunning())
            scheduleNext();
        else
            refresh();
    });
    m_clock.setInterval(1000);
    connect(&m_clock, &QTimer::timeout, this, &LaunchedRunsModel::tickDurations);
    refresh();
}

LaunchedRunsModel::~LaunchedRunsModel()
{
    // The runners (children) cancel and wait for their jobs.
    m_poll.stop();
}

void LaunchedRunsModel::setIntervals(int busyMs, int idleMs)
{
    m_busyMs = busyMs;
    m_idleMs = idleMs;
    scheduleNext();
}

bool LaunchedRunsModel::isRefreshing() const
{
    return m_runner->isRunning();
}

void LaunchedRunsModel::refresh()
{
    // One refresh at a time: a request while one is under way runs once after
    // it. Superseding it instead meant that a far folder whose events come
    // faster than its `ckpt runs` answers (a live far run, a login shell that
    // takes seconds to start) never showed its runs at all.
    if (m_runner->isRunning()) {
        m_refreshAgain = true;
        return;
    }
    m_refreshAgain = false;
    m_runner->start<Snapshot>(
        [launcher = m_launcher, remotes = m_remotes, previous = m_remoteResults](
            const Progress& progress) { return collect(launcher, remotes, previous, progress); },
        [this](Snapshot s) {
            apply(std::move(s));
            if (std::exchange(m_refreshAgain, false))
                refresh();
        });
}

void LaunchedRunsModel::setRemoteSources(std::vector<RemoteLaunchedRuns::Source> sources)
{
    m_remotes = std::move(sources);
    refresh();
}

LaunchedRunsModel::Snapshot LaunchedRunsModel::collect(
    const Launcher& launcher, const std::vector<RemoteLaunchedRuns::Source>& remotes,
    const std::vector<RemoteLaunchedRuns::Result>& previous, const Progress& progress)
{
    Snapshot s;
    auto listed = launcher.runs({}, progress);
    if (!listed) {
        s.error = QString::fromStdString(listed.error().message);
        return s;
    }
    for (auto& run : *listed)
        s.runs.push_back({std::move(run), {}});
    // Pointers into s.runs only once it has stopped growing (it used to
    // reallocate under them: a use after free ASan found).
    std::vector<const LaunchRecord*> records;
    for (const Row& row : s.runs)
        if (row.run.record)
            records.push_back(&*row.run.record);
    s.edges = Lineage::edgesFrom(records);
    for (const RemoteLaunchedRuns::Source& source : remotes) {
        if (progress.cancelled())
            break;
        const RemoteLaunchedRuns::Result* last = nullptr;
        for (const auto& p : previous)
            if (p.folder == source.folder)
                last = &p;
        s.remote.push_back(RemoteLaunchedRuns::collect(source, last, progress));
        const QString folder = QString::fromStdString(source.folder);
        for (const Launcher::Listed& run : s.remote.back().runs)
            s.runs.push_back({run, folder});
        s.edges.insert(s.edges.end(), s.remote.back().edges.begin(), s.remote.back().edges.end());
    }
    // Told apart off the GUI thread: paths of every listed run and parent.
    s.names = namesOf(s.runs, s.edges);
    return s;
}

void LaunchedRunsModel::apply(Snapshot s)
{
    if (!s.error.isEmpty()) {
        emit refreshFailed(s.error);
        scheduleNext();
        return;
    }
    QStringList remoteErrors;
    for (const auto& r : s.remote)
        if (!r.error.empty())
            remoteErrors << QString::fromStdString(r.error);
    m_remoteResults = std::move(s.remote);
    m_names = std::move(s.names);
    const auto sameRoots = [&](std::size_t n) {
        for (std::size_t i = 0; i < n; ++i)
            if (m_runs[i].run.entry.runRoot != s.runs[i].run.entry.runRoot)
                return false;
        return true;
    };
    const std::size_t before = m_runs.size();
    const std::size_t after = s.runs.size();
    if (after >= before && sameRoots(before)) {
        // The usual case: the same runs, perhaps new ones at the end (the
        // registry keeps its order), so the view keeps its selection.
        for (std::size_t i = 0; i < before; ++i)
            m_runs[i] = std::move(s.runs[i]);
        if (before > 0)
            emit dataChanged(index(0, 0), index(int(before) - 1, ColumnCount - 1));
        if (after > before) {
            beginInsertRows({}, int(before), int(after) - 1);
            for (std::size_t i = before; i < after; ++i)
                m_runs.push_back(std::move(s.runs[i]));
            endInsertRows();
        }
    } else {
        beginResetModel();
        m_runs = std::move(s.runs);
        endResetModel();
    }
    m_edges = std::move(s.edges);
    ++m_refreshCount;
    const QString signature = lineageSignature();
    if (signature != m_signature) {
        m_signature = signature;
        emit lineageChanged();
    }
    if (anyActive())
        m_clock.start();
    else
        m_clock.stop();
    emit refreshed();
    if (!remoteErrors.isEmpty())
        emit refreshFailed(remoteErrors.join(QLatin1Char('\n')));
    scheduleNext();
}

std::map<std::string, std::string> LaunchedRunsModel::namesOf(const std::vector<Row>& runs,
                                                              const std::vector<LineageEdge>& edges)
{
    std::vector<std::pair<std::string, std::string>> named;
    for (const Row& r : runs)
        named.emplace_back(r.run.entry.runRoot,
                           RunSummary::displayName(r.run.entry.name, r.run.entry.runRoot));
    for (const LineageEdge& e : edges)
        for (const std::string& root : {e.parentRoot, e.childRoot})
            named.emplace_back(root, RunBranches::displayName(root));
    for (const Row& r : runs)
        if (const LaunchAttempt* a = latestOf(r.run); a && a->plan.parent)
            named.emplace_back(a->plan.parent->runRoot,
                               RunBranches::displayName(a->plan.parent->runRoot));
    return RunNames::distinct(named);
}

QString LaunchedRunsModel::shownName(const std::string& root) const
{
    const auto it = m_names.find(root);
    return QString::fromStdString(it != m_names.end() ? it->second
                                                      : RunBranches::displayName(root));
}

QString LaunchedRunsModel::lineageSignature() const
{
    QString sig;
    for (const auto& [run, folder] : m_runs) {
        const auto* a = latestOf(run);
        sig += QString::fromStdString(run.entry.runRoot) + QLatin1Char('=') +
               QLatin1String(a ? runStateName(a->state) : "?") + QLatin1Char(';');
    }
    for (const auto& e : m_edges)
        sig += QString::fromStdString(e.parentRoot + ">" + e.childRoot + "@" +
                                      std::to_string(e.epoch) + e.submitted +
                                      RunSummary::changes(e.changes) + runStateName(e.state)) +
               QLatin1Char(';');
    return sig;
}

void LaunchedRunsModel::scheduleNext()
{
    const int ms = anyActive() ? m_busyMs : m_idleMs;
    if (ms > 0)
        m_poll.start(ms);
    else
        m_poll.stop();
}

void LaunchedRunsModel::tickDurations()
{
    for (int row = 0; row < int(m_runs.size()); ++row)
        if (stateAt(row) == RunState::Running)
            emit dataChanged(index(row, DurationColumn), index(row, DurationColumn),
                             {Qt::DisplayRole});
}

bool LaunchedRunsModel::anyActive() const
{
    for (int row = 0; row < int(m_runs.size()); ++row)
        if (!isFinished(stateAt(row))) // pending, running or requeued
            return true;
    return false;
}

void LaunchedRunsModel::stop(const QString& root, std::chrono::milliseconds grace)
{
    if (m_stopping.contains(root))
        return;
    m_stopping << root;
    if (const int row = rowOf(root); row >= 0)
        emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
    if (isRemote(root)) {
        const int seconds = int(std::max<qint64>(1, (grace.count() + 999) / 1000));
        runRemote(
            root,
            [seconds](const RemoteCkpt& client, const std::string& far) {
                auto r = client.stop(far, seconds);
                return r ? std::string() : r.error().message;
            },
            [this, root](const QString& error) {
                m_stopping.removeAll(root);
                emit stopFinished(root, error);
                refresh();
            });
        return;
    }
    // One runner per stop: stopping one run must not cancel another's stop.
    auto* runner = new JobRunner(this);
    runner->start<QString>(
        [path = root.toStdString(), grace](const Progress& progress) {
            auto r = Launcher::stop(path, grace, progress);
            return r ? QString() : QString::fromStdString(r.error().message);
        },
        [this, root, runner](QString error) {
            m_stopping.removeAll(root);
            runner->deleteLater();
            emit stopFinished(root, error);
            refresh();
        });
}

void LaunchedRunsModel::runRemote(
    const QString& root, std::function<std::string(const RemoteCkpt&, const std::string&)> job,
    std::function<void(const QString& error)> done)
{
    const RemoteLaunchedRuns::Source* source = sourceAt(rowOf(root));
    if (!source) {
        done(tr("%1 is no longer listed").arg(root));
        return;
    }
    auto* runner = new JobRunner(this);
    runner->start<QString>(
        [client = source->client, far = root.mid(int(source->prefix.size())).toStdString(),
         job = std::move(job)](const Progress&) {
            return QString::fromStdString(job(client, far));
        },
        [runner, done = std::move(done)](QString error) {
            runner->deleteLater();
            done(error);
        });
}

const RemoteLaunchedRuns::Source* LaunchedRunsModel::sourceAt(int row) const
{
    if (row < 0 || row >= int(m_runs.size()) || m_runs[std::size_t(row)].folder.isEmpty())
        return nullptr;
    const std::string folder = m_runs[std::size_t(row)].folder.toStdString();
    for (const auto& source : m_remotes)
        if (source.folder == folder)
            return &source;
    return nullptr;
}

QString LaunchedRunsModel::hostAt(int row) const
{
    const RemoteLaunchedRuns::Source* source = sourceAt(row);
    return source ? QString::fromStdString(source->client.target().display()) : QString();
}

int LaunchedRunsModel::rowOf(const QString& root) const
{
    const std::string r = root.toStdString();
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i].run.entry.runRoot == r)
            return int(i);
    return -1;
}

QString LaunchedRunsModel::rootAt(int row) const
{
    if (row < 0 || row >= int(m_runs.size()))
        return {};
    return QString::fromStdString(m_runs[std::size_t(row)].run.entry.runRoot);
}

QString LaunchedRunsModel::nameOf(const QString& root) const
{
    return shownName(root.toStdString());
}

QString LaunchedRunsModel::logPathAt(int row) const
{
    const LaunchRecord* r = recordAt(row);
    return r && r->latest() ? QString::fromStdString(r->latest()->logPath) : QString();
}

const LaunchRecord* LaunchedRunsModel::recordAt(int row) const
{
    if (row < 0 || row >= int(m_runs.size()) || !m_runs[std::size_t(row)].run.record)
        return nullptr;
    return &*m_runs[std::size_t(row)].run.record;
}

QString LaunchedRunsModel::forget(const QString& root)
{
    if (isRemote(root)) {
        runRemote(
            root,
            [](const RemoteCkpt& client, const std::string& far) {
                auto r = client.forget(far);
                return r ? std::string() : r.error().message;
            },
            [this, root](const QString& error) {
                emit forgetFinished(root, error);
                refresh();
            });
        return {};
    }
    if (auto done = registry().forget(root.toStdString()); !done)
        return QString::fromStdString(done.error().message);
    refresh();
    return {};
}

QStringList LaunchedRunsModel::goneRuns() const
{
    QStringList out;
    for (const auto& [run, folder] : m_runs)
        if (run.gone)
            out << QString::fromStdString(run.entry.runRoot);
    return out;
}

RunState LaunchedRunsModel::stateAt(int row) const
{
    const LaunchRecord* r = recordAt(row);
    return r && r->latest() ? r->latest()->state : RunState::Lost;
}

std::optional<RunState> LaunchedRunsModel::stateOf(const QString& root) const
{
    const int row = rowOf(root);
    return row >= 0 ? std::optional<RunState>(stateAt(row)) : std::nullopt;
}

int LaunchedRunsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

int LaunchedRunsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant LaunchedRunsModel::display(const Launcher::Listed& run, int column) const
{
    const LaunchAttempt* a = latestOf(run);
    if (column == NameColumn)
        return shownName(run.entry.runRoot);
    if (!a) // deleted or moved since it was launched, or its record is unreadable
        return column != StateColumn ? QStringLiteral("—")
               : run.gone            ? tr("gone")
                                     : tr("no record");
    switch (column) {
    case StateColumn: {
        QString text = QLatin1String(runStateName(a->state));
        if (m_stopping.contains(QString::fromStdString(run.entry.runRoot)))
            text = QStringLiteral("stopping…");
        return text;
    }
    case BackendColumn:
        return QLatin1String(LaunchPlan::backendName(a->plan.backend));
    case ProcessColumn:
        return QString::fromStdString(RunSummary::process(*a));
    case ParentColumn:
        return parentText(*a, a->plan.parent ? shownName(a->plan.parent->runRoot) : QString());
    case StartedColumn: {
        const QDateTime t = localTime(RunSummary::started(*a));
        return t.isValid() ? t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))
                           : QStringLiteral("—");
    }
    case DurationColumn: {
        const auto s = RunSummary::durationSeconds(*a, QDateTime::currentSecsSinceEpoch());
        if (!s)
            return QStringLiteral("—");
        // Whole seconds: "0.0 s" style decimals would only tick in steps of 1.0.
        if (*s < 60)
            return *s < 1 ? tr("< 1 s") : tr("%1 s").arg(*s);
        return QString::fromStdString(Format::duration(double(*s)));
    }
    default:
        return {};
    }
}

QVariant LaunchedRunsModel::sortValue(const Launcher::Listed& run, int column) const
{
    const LaunchAttempt* a = latestOf(run);
    if (a && column == StartedColumn)
        return localTime(RunSummary::started(*a)).toSecsSinceEpoch();
    if (a && column == DurationColumn) {
        const auto s = RunSummary::durationSeconds(*a, QDateTime::currentSecsSinceEpoch());
        return s ? QVariant(qint64(*s)) : QVariant(qint64(-1));
    }
    if (a && column == StateColumn)
        return int(a->state);
    return display(run, column);
}

QVariant LaunchedRunsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Launcher::Listed& run = m_runs[std::size_t(index.row())].run;
    const LaunchAttempt* a = latestOf(run);
    const QString host = hostAt(index.row());
    switch (role) {
    case Qt::DisplayRole:
        if (index.column() == BackendColumn && !host.isEmpty() && a)
            return tr("%1 @ %2").arg(display(run, BackendColumn).toString(), host);
        return display(run, index.column());
    case roles::RemoteHostRole:
        return host;
    case Qt::ToolTipRole: {
        QString tip = QString::fromStdString(run.entry.runRoot);
        if (!host.isEmpty())
            tip += tr("\nlaunched on %1 (read over ssh)").arg(host);
        if (a && !a->slurmState.empty())
            tip += QStringLiteral("\nSlurm: %1").arg(QString::fromStdString(a->slurmState));
        if (a && a->plan.parent && !a->plan.parent->changes.empty())
            tip += QStringLiteral("\nchanged: %1")
                       .arg(QString::fromStdString(RunSummary::changes(a->plan.parent->changes)));
        if (!run.error.empty())
            tip += QStringLiteral("\n%1").arg(QString::fromStdString(run.error));
        return tip;
    }
    case Qt::TextAlignmentRole:
        return index.column() == DurationColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                                : QVariant();
    case roles::SortRole:
        return sortValue(run, index.column());
    case roles::RunRootRole:
        return QString::fromStdString(run.entry.runRoot);
    case roles::RunStateRole:
        if (a)
            return int(a->state);
        return run.gone ? QVariant() : QVariant(int(RunState::Lost)); // gone: no state
    case roles::PathRole:
        return a ? QString::fromStdString(a->logPath) : QString();
    default:
        return {};
    }
}

QVariant LaunchedRunsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Run");
    case StateColumn:
        return tr("State");
    case BackendColumn:
        return tr("Backend");
    case ProcessColumn:
        return tr("Job / PID");
    case ParentColumn:
        return tr("From");
    case StartedColumn:
        return tr("Started");
    case DurationColumn:
        return tr("Duration");
    default:
        return {};
    }
}

} // namespace ckpt

// Compiled here, not in the library's combined moc file: launch/RunState and
// session/RunState (the workspace's per-run state) must not meet in one unit.
#include "moc_LaunchedRunsModel.cpp"
