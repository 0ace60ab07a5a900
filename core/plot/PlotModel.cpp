#include "plot/PlotModel.h"

#include "plot/BranchCurves.h"
#include "plot/CurveBuilder.h"

#include <QCoreApplication>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <set>
#include <thread>

namespace ckpt {

namespace {
std::optional<double> earliestWallTime(const MetricHistory& history)
{
    std::optional<double> t;
    for (const auto& row : history.rows)
        if (row.wallTime && (!t || *row.wallTime < *t))
            t = row.wallTime;
    return t;
}

QString tr(const char* text)
{
    return QCoreApplication::translate("ckpt::PlotModel", text);
}

QString number(double v)
{
    return QString::number(v, 'g', 7);
}

bool drawable(double v, bool logY)
{
    return std::isfinite(v) && (!logY || v > 0.0);
}

bool sameBranches(const std::vector<HistoryBranch>& a, const std::vector<HistoryBranch>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const HistoryBranch& x, const HistoryBranch& y) {
                          return x.kind == y.kind && x.epoch == y.epoch && x.origin == y.origin &&
                                 x.time == y.time && x.rows.size() == y.rows.size();
                      });
}
} // namespace

void PlotModel::setRuns(std::vector<Run> runs)
{
    m_runs = std::move(runs);
    collectMetricNames();
    rebuildCurves();
}

std::size_t PlotModel::rowCount(const std::vector<Run>& runs)
{
    std::size_t rows = 0;
    for (const auto& run : runs) {
        rows += run.history->rows.size();
        for (const auto& branch : run.history->branches)
            rows += branch.rows.size();
    }
    return rows;
}

MetricHistory& PlotModel::editable(Run& run)
{
    if (run.history.use_count() > 1)
        run.history = std::make_shared<MetricHistory>(*run.history);
    // Every history is made by make_shared<MetricHistory> (never a const object).
    return const_cast<MetricHistory&>(*run.history);
}

void PlotModel::collectMetricNames()
{
    m_metricNames.clear();
    for (const auto& run : m_runs)
        run.history->collectMetricNames(m_metricNames);
}

bool PlotModel::extends(const QString& id, const QString& name, const MetricHistory& history) const
{
    const int index = findRun(id);
    if (index < 0)
        return false;
    const Run& run = m_runs[std::size_t(index)];
    const MetricHistory& old = *run.history;
    const auto sameSegment = [](const HistorySegment& a, const HistorySegment& b) {
        return a.index == b.index && a.resumedFrom == b.resumedFrom;
    };
    bool extends = run.name == name && history.rows.size() >= old.rows.size() &&
                   sameBranches(old.branches, history.branches) &&
                   std::equal(old.segments.begin(), old.segments.end(), history.segments.begin(),
                              history.segments.end(), sameSegment);
    // The rows drawn must be the same too, values included: a rewritten
    // training.log keeps the epochs but not their values.
    const auto sameSample = [](const MetricSample& a, const MetricSample& b) {
        return a.metric == b.metric && a.source == b.source &&
               (a.value == b.value || (std::isnan(a.value) && std::isnan(b.value)));
    };
    for (std::size_t i = 0; extends && i < old.rows.size(); ++i)
        extends =
            old.rows[i].epoch == history.rows[i].epoch &&
            old.rows[i].segment == history.rows[i].segment &&
            std::equal(old.rows[i].samples.begin(), old.rows[i].samples.end(),
                       history.rows[i].samples.begin(), history.rows[i].samples.end(), sameSample);
    return extends;
}

PlotModel::Change PlotModel::updateRun(const QString& id, const QString& name,
                                       MetricHistory history)
{
    return updateRun(id, name, std::make_shared<MetricHistory>(std::move(history)));
}

PlotModel::Change PlotModel::updateRun(const QString& id, const QString& name,
                                       std::shared_ptr<const MetricHistory> shared)
{
    const int index = findRun(id);
    if (index < 0) {
        Run run;
        run.id = id;
        run.name = name;
        run.history = std::move(shared);
        m_runs.push_back(std::move(run));
        collectMetricNames();
        rebuildCurves();
        return {true, {}};
    }
    Run& run = m_runs[std::size_t(index)];
    const MetricHistory& history = *shared;
    if (!extends(id, name, history)) {
        run.name = name;
        run.history = std::move(shared);
        collectMetricNames();
        rebuildCurves();
        return {true, {}};
    }
    const std::size_t oldRows = run.history->rows.size();
    Change change;
    for (std::size_t i = oldRows; i < history.rows.size(); ++i) {
        Change step = appendRow(id, history.rows[i]);
        if (step.rebuilt)
            change = {true, {}};
        else if (!change.rebuilt)
            for (const auto& g : step.grown)
                if (std::none_of(change.grown.begin(), change.grown.end(),
                                 [&](const Growth& h) { return h.curve == g.curve; }))
                    change.grown.push_back(g);
    }
    return change;
}

PlotModel::Change PlotModel::appendRow(const QString& id, const HistoryRow& row)
{
    const int index = findRun(id);
    if (index < 0)
        return {};
    Run& run = m_runs[std::size_t(index)];
    MetricHistory& history = editable(run);
    history.rows.push_back(row);
    for (const auto& sample : row.samples)
        m_metricNames.insert(sample.metric);
    const bool knownSegment =
        std::any_of(history.segments.begin(), history.segments.end(),
                    [&](const HistorySegment& s) { return s.index == row.segment; });
    Change change;
    if (!knownSegment)
        history.segments.push_back(HistorySegment{row.segment, {}, {}, {}, {}});
    if (!knownSegment || !appendFast(index, row, change)) {
        rebuildCurves();
        return {true, {}};
    }
    return change;
}

bool PlotModel::appendFast(int runIndex, const HistoryRow& row, Change& change)
{
    Run& run = m_runs[std::size_t(runIndex)];
    if (row.wallTime && (!run.timeOrigin || *row.wallTime < *run.timeOrigin))
        return false; // the origin of relative time would move
    for (int m = 0; m < m_metrics.size(); ++m) {
        const std::string metric = m_metrics[m].toStdString();
        const auto value = row.value(metric);
        if (!value)
            continue;
        const auto it = std::find_if(m_curves.begin(), m_curves.end(), [&](const Curve& c) {
            return c.run == runIndex && c.metric == m && c.curve.segment == row.segment;
        });
        if (it == m_curves.end())
            return false;
        const int before = it->series.size();
        it->curve.points.push_back(
            CurvePoint{row.epoch, *value, row.wallTime, *row.sourceOf(metric)});
        if (!it->series.appendLast(it->curve))
            return false;
        change.grown.push_back(Growth{int(it - m_curves.begin()), before});
    }
    return true;
}

bool PlotModel::removeRun(const QString& id)
{
    const int index = findRun(id);
    if (index < 0)
        return false;
    m_runs.erase(m_runs.begin() + index);
    collectMetricNames();
    rebuildCurves();
    return true;
}

void PlotModel::releaseSharedHistories()
{
    for (auto& run : m_runs)
        if (run.history.use_count() > 1)
            run.history.reset();
}

bool PlotModel::setMarkers(const QString& id, int last, int best)
{
    const int index = findRun(id);
    if (index < 0)
        return false;
    m_runs[std::size_t(index)].last = last;
    m_runs[std::size_t(index)].best = best;
    return true;
}

bool PlotModel::setCheckpoints(const QString& id, std::vector<int> epochs)
{
    const int index = findRun(id);
    if (index < 0)
        return false;
    auto& kept = m_runs[std::size_t(index)].checkpoints;
    if (kept && *kept == epochs)
        return false;
    kept = std::move(epochs);
    return true;
}

std::optional<bool> PlotModel::hasCheckpoint(int run, int epoch) const
{
    if (run < 0 || run >= int(m_runs.size()) || !m_runs[std::size_t(run)].checkpoints)
        return std::nullopt;
    const auto& kept = *m_runs[std::size_t(run)].checkpoints;
    return std::binary_search(kept.begin(), kept.end(), epoch);
}

void PlotModel::setMetrics(const QStringList& metrics)
{
    m_metrics = metrics;
    rebuildCurves();
}

void PlotModel::setShowSuperseded(bool on)
{
    if (on == m_showSuperseded)
        return;
    m_showSuperseded = on;
    rebuildCurves();
}

void PlotModel::setOptions(PlotXAxis xAxis, double smoothing, bool logY)
{
    if (xAxis == m_xAxis && smoothing == m_smoothing && logY == m_logY)
        return;
    m_xAxis = xAxis;
    m_smoothing = smoothing;
    m_logY = logY;
    rebuildSeries();
}

QStringList PlotModel::availableMetrics() const
{
    QStringList out;
    for (const auto& name : m_metricNames)
        out << QString::fromStdString(name);
    return out;
}

int PlotModel::findRun(const QString& id) const
{
    for (std::size_t i = 0; i < m_runs.size(); ++i)
        if (m_runs[i].id == id)
            return int(i);
    return -1;
}

bool PlotModel::hasPoints() const
{
    return std::any_of(m_curves.begin(), m_curves.end(),
                       [](const Curve& c) { return c.series.pointCount() > 0; });
}

SeriesRange PlotModel::keyRange() const
{
    SeriesRange r;
    for (const auto& c : m_curves)
        r.include(c.series.keyRange());
    return r;
}

SeriesRange PlotModel::valueRange() const
{
    SeriesRange r;
    for (const auto& c : m_curves)
        r.include(c.series.valueRange());
    return r;
}

SeriesOptions PlotModel::optionsFor(const Run& run) const
{
    SeriesOptions options;
    options.xAxis = m_xAxis;
    options.smoothing = m_smoothing;
    options.logY = m_logY;
    options.timeOrigin = run.timeOrigin.value_or(0.0);
    return options;
}

void PlotModel::rebuildCurves()
{
    m_curves.clear();
    // Restored histories live until every group is built.
    std::vector<std::unique_ptr<MetricHistory>> restored(m_runs.size());
    std::vector<Group> groups;
    for (std::size_t r = 0; r < m_runs.size(); ++r) {
        const MetricHistory& own = *m_runs[r].history;
        m_runs[r].timeOrigin = earliestWallTime(own);
        // A restart's folder may hold epochs the run's own logs lost since
        // (the workspace's histories come with them put back already).
        if (own.hasSuperseded() && !own.restored)
            restored[r] = std::make_unique<MetricHistory>(own.restoredFromBranches());
        const MetricHistory* history = restored[r] ? restored[r].get() : &own;
        for (int m = 0; m < m_metrics.size(); ++m)
            groups.push_back(Group{int(r), m, history, {}});
    }
    buildGroups(groups);
}

void PlotModel::rebuildSeries()
{
    // Branches continue their parent's smoothing: one run's metric is built whole.
    std::vector<Group> groups;
    for (std::size_t i = 0; i < m_curves.size();) {
        Group g{m_curves[i].run, m_curves[i].metric, nullptr, {}};
        for (; i < m_curves.size() && m_curves[i].run == g.run && m_curves[i].metric == g.metric;
             ++i)
            g.curves.push_back(std::move(m_curves[i]));
        groups.push_back(std::move(g));
    }
    m_curves.clear();
    buildGroups(groups);
}

void PlotModel::buildGroups(std::vector<Group>& groups)
{
    const auto build = [this](Group& g) {
        if (g.history) {
            const std::string metric = m_metrics[g.metric].toStdString();
            auto curves = CurveBuilder::build(*g.history, metric);
            BranchCurves::add(curves, *g.history, metric, m_showSuperseded);
            for (auto& curve : curves)
                g.curves.push_back(Curve{g.run, g.metric, std::move(curve), {}});
        }
        std::vector<const MetricCurve*> group;
        for (const Curve& c : g.curves)
            group.push_back(&c.curve);
        auto series = PlotSeries::buildAll(group, optionsFor(m_runs[std::size_t(g.run)]));
        for (std::size_t k = 0; k < series.size(); ++k)
            g.curves[k].series = std::move(series[k]);
    };
    // Each run's metric is independent of the others: long ones are built on
    // as many threads as there are cores. Threads of their own: a build runs on
    // the pool (PlotLoader), and waiting there for more pool tasks can deadlock
    // when two builds hold every pool thread.
    const std::size_t threads =
        groups.size() > 1 && rowCount(m_runs) > kParallelAbove
            ? std::min<std::size_t>(groups.size(),
                                    std::max(1u, std::thread::hardware_concurrency()))
            : 1;
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
        for (std::size_t i = next++; i < groups.size() && !(m_cancelled && m_cancelled());
             i = next++)
            build(groups[i]);
    };
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < threads; ++t)
        helpers.emplace_back(work);
    work();
    for (auto& helper : helpers)
        helper.join();
    for (Group& g : groups)
        for (Curve& c : g.curves)
            m_curves.push_back(std::move(c));
}

std::vector<std::pair<double, double>> PlotModel::markerPoints(int run, int epoch) const
{
    std::map<int, std::pair<double, double>> perMetric; // later segments win
    for (const auto& c : m_curves) {
        if (c.run != run || c.curve.kind != MetricCurve::Kind::Own)
            continue;
        const auto& pts = c.curve.points;
        // An anchor is the parent's point, marked through the parent.
        const auto hit =
            std::lower_bound(pts.begin() + (c.curve.anchored() ? 1 : 0), pts.end(), epoch,
                             [](const CurvePoint& p, int e) { return p.epoch < e; });
        if (hit == pts.end() || hit->epoch != epoch)
            continue;
        const auto key = c.series.keyOf(*hit);
        if (key && drawable(hit->value, m_logY))
            perMetric[c.metric] = {*key, hit->value};
    }
    std::vector<std::pair<double, double>> out;
    for (const auto& [metric, point] : perMetric)
        out.push_back(point);
    return out;
}

PlotModel::Pick PlotModel::pick(QPointF pos, double radius, double keyLower, double keyUpper,
                                const PointPicker::ToPixel& toPixel) const
{
    Pick best;
    for (std::size_t i = 0; i < m_curves.size(); ++i) {
        const auto hit = PointPicker::nearest(m_curves[i].series, pos, radius, keyLower, keyUpper,
                                              toPixel, m_smoothing > 0.0);
        if (hit.entry >= 0 && (best.curve < 0 || hit.distance < best.hit.distance))
            best = Pick{int(i), hit};
    }
    return best;
}

QString PlotModel::emptyMessage() const
{
    if (m_runs.empty())
        return tr("No metrics yet — drop a folder or pick a run");
    if (m_metrics.isEmpty())
        return tr("Pick a metric to plot");
    if (!hasPoints())
        return tr("No values yet for %1").arg(m_metrics.join(QStringLiteral(", ")));
    return {};
}

QStringList PlotModel::runIds() const
{
    QStringList ids;
    for (const auto& run : m_runs)
        ids << run.id;
    return ids;
}

QString PlotModel::curveTitle(int curve) const
{
    const Curve& c = m_curves[std::size_t(curve)];
    QString name = m_runs[std::size_t(c.run)].name + QStringLiteral(" · ") + m_metrics[c.metric];
    if (const HistoryBranch* b = branchOf(curve)) {
        if (c.curve.kind == MetricCurve::Kind::LeadIn)
            return name + tr(" (from %1)").arg(QString::fromStdString(b->name));
        return name + tr(" (superseded)");
    }
    if (c.curve.segment > 0)
        name += tr(" (restart %1)").arg(c.curve.segment);
    return name;
}

const HistoryBranch* PlotModel::branchOf(int curve) const
{
    const Curve& c = m_curves[std::size_t(curve)];
    const auto& branches = m_runs[std::size_t(c.run)].history->branches;
    if (c.curve.kind == MetricCurve::Kind::Own || c.curve.branch < 0 ||
        c.curve.branch >= int(branches.size()))
        return nullptr;
    return &branches[std::size_t(c.curve.branch)];
}

QString PlotModel::describe(int curve, int entry) const
{
    const Curve& c = m_curves[std::size_t(curve)];
    const PlotSeries& s = c.series;
    const CurvePoint& p = c.curve.points[std::size_t(s.curvePoint(entry))];
    QString text = curveTitle(curve) + QLatin1Char('\n') +
                   tr("epoch %1: %2 (%3)")
                       .arg(p.epoch)
                       .arg(number(p.value), QString::fromUtf8(toString(p.source)));
    if (m_smoothing > 0.0)
        text += QLatin1Char('\n') + tr("smoothed: %1").arg(number(s.smoothed()[entry]));
    if (s.supersededFrom() >= 0 && entry >= s.supersededFrom())
        text += QLatin1Char('\n') + tr("trained again after a restart");
    // Where one can roll back to: only the run's own current epochs have one.
    if (c.curve.kind == MetricCurve::Kind::Own &&
        !(s.supersededFrom() >= 0 && entry >= s.supersededFrom()))
        if (const auto kept = hasCheckpoint(c.run, p.epoch))
            text += QLatin1Char('\n') +
                    (*kept ? tr("checkpoint on disk")
                           : tr("no checkpoint on disk (pruned): no roll back to here"));
    if (const HistoryBranch* b = branchOf(curve)) {
        const QString when = QString::fromStdString(b->time);
        if (c.curve.kind == MetricCurve::Kind::Superseded)
            text += QLatin1Char('\n') +
                    (when.isEmpty()
                         ? tr("superseded by restart from epoch %1").arg(b->epoch)
                         : tr("superseded by restart from epoch %1 at %2").arg(b->epoch).arg(when));
        else
            text += QLatin1Char('\n') + tr("%1's epoch, before the fork at epoch %2")
                                            .arg(QString::fromStdString(b->name))
                                            .arg(b->epoch);
    }
    return text;
}

std::optional<double> PlotModel::keyOfEpoch(int run, int epoch) const
{
    if (run < 0 || run >= int(m_runs.size()))
        return std::nullopt;
    if (m_xAxis == PlotXAxis::Epoch)
        return double(epoch);
    const Run& r = m_runs[std::size_t(run)];
    std::optional<double> t; // the newest row of that epoch that has a time
    for (const auto& row : r.history->rows)
        if (row.epoch == epoch && row.wallTime)
            t = row.wallTime;
    if (!t)
        return std::nullopt;
    return m_xAxis == PlotXAxis::WallTime ? *t : (*t - r.timeOrigin.value_or(*t)) / 3600.0;
}

} // namespace ckpt
