#include "plot/CurveGraphs.h"

#include "plot/CurveReduction.h"
#include "plot/PlotTheme.h"

#include <QCoreApplication>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace ckpt {

namespace {
constexpr int kScatterUpTo = 100; // curves this short show their points
constexpr int kThickUpTo = 1000;  // curves this short get a wide pen

QString tr(const char* text)
{
    return QCoreApplication::translate("ckpt::MetricPlot", text);
}

bool isOwn(const PlotModel::Curve& c)
{
    return c.curve.kind == MetricCurve::Kind::Own;
}
} // namespace

CurveGraphs::CurveGraphs(QCustomPlot* plot, const PlotModel& model) : m_plot(plot), m_model(model)
{}

void CurveGraphs::rebuild()
{
    m_plot->clearGraphs();
    m_raw.clear();
    m_smooth.clear();
    m_tail.clear();
    m_best.clear();
    m_last.clear();
    m_kept.clear();
    const bool manyRuns = m_model.runs().size() > 1;
    for (std::size_t i = 0; i < m_model.curves().size(); ++i) {
        const auto& c = m_model.curves()[i];
        QCPGraph* raw = m_plot->addGraph();
        QCPGraph* tail = m_plot->addGraph();
        QCPGraph* smooth = m_plot->addGraph();
        for (QCPGraph* g : {raw, tail, smooth}) {
            g->setAdaptiveSampling(true); // QCustomPlot's default; the reduction relies on it
            g->removeFromLegend();        // updateLegend() names what is drawn
        }
        const QString runName = m_model.runs()[std::size_t(c.run)].name;
        const QString prefix = manyRuns ? runName + QStringLiteral(" · ") : QString();
        smooth->setName(prefix + m_model.metrics()[c.metric]);
        if (const HistoryBranch* b = m_model.branchOf(int(i));
            b && c.curve.kind == MetricCurve::Kind::Superseded)
            tail->setName(prefix + tr("superseded (restart from %1)").arg(b->epoch));
        m_raw.push_back(raw);
        m_tail.push_back(tail);
        m_smooth.push_back(smooth);
    }
    // Markers go last so they are drawn on top of every curve.
    for (std::size_t r = 0; r <= m_model.runs().size(); ++r) {
        QCPGraph* kept = m_plot->addGraph();
        QCPGraph* best = m_plot->addGraph();
        QCPGraph* last = m_plot->addGraph();
        kept->setName(tr("checkpoint on disk"));
        best->setName(tr("best epoch"));
        last->setName(tr("last epoch"));
        for (QCPGraph* g : {kept, best, last}) {
            g->setLineStyle(QCPGraph::lsNone);
            g->removeFromLegend();
        }
        // One neutral set more, without data, stands for all runs in the legend.
        m_kept.push_back(kept);
        m_best.push_back(best);
        m_last.push_back(last);
    }
    // Where each restart resumed: visible even when the re-run retraces the old values.
    m_restart = m_plot->addGraph();
    m_restart->setName(tr("restart"));
    m_restart->setLineStyle(QCPGraph::lsNone);
    m_restart->removeFromLegend();
}

int CurveGraphs::buckets() const
{
    // The plot's own width is stale while the empty state hides it (a stacked
    // layout sizes the shown page only): the widget around it is not.
    const QWidget* outer = m_plot->parentWidget() ? m_plot->parentWidget() : m_plot;
    return std::max({200, m_plot->axisRect()->width(), outer->width()});
}

void CurveGraphs::setData(std::size_t i, Look look)
{
    const auto& c = m_model.curves()[i];
    const QCPRange window = m_plot->xAxis->range();
    setData(i,
            CurveReduction::reduce(c.series, isOwn(c), look.smoothing, window.lower, window.upper,
                                   buckets()),
            look);
}

void CurveGraphs::setData(std::size_t i, const ReducedCurve& r, Look look)
{
    const auto put = [&](QCPGraph* graph, const Decimator::Output& data) {
        if (data.keys.isEmpty())
            graph->data()->clear();
        else
            graph->setData(data.keys, data.values, r.sorted);
    };
    put(m_smooth[i], r.line);
    put(m_tail[i], r.tail);
    m_raw[i]->setVisible(look.smoothing);
    put(m_raw[i], r.raw);
}

void CurveGraphs::redecimate(Look look)
{
    for (std::size_t i = 0; i < m_model.curves().size(); ++i)
        if (CurveReduction::reduces(m_model.curves()[i].series))
            setData(i, look);
}

QCPGraph* CurveGraphs::lineOf(std::size_t i) const
{
    const auto& c = m_model.curves()[i];
    return !isOwn(c) || c.series.supersededFrom() >= 0 ? m_tail[i] : m_smooth[i];
}

void CurveGraphs::grow(std::size_t i, int from, Look look)
{
    const PlotSeries& s = m_model.curves()[i].series;
    const int n = s.size() - from;
    const auto keys = s.keys().mid(from, n);
    lineOf(i)->addData(keys, (look.smoothing ? s.smoothed() : s.raw()).mid(from, n), true);
    if (look.smoothing)
        m_raw[i]->addData(keys, s.raw().mid(from, n), true);
}

void CurveGraphs::updateMarkers(Look look)
{
    for (std::size_t r = 0; r < m_model.runs().size(); ++r) {
        const auto& run = m_model.runs()[r];
        // Where one can roll back to: epochs pruned or superseded get none.
        m_kept[r]->data()->clear();
        if (run.checkpoints)
            for (const int epoch : *run.checkpoints)
                for (const auto& [key, value] : m_model.markerPoints(int(r), epoch))
                    m_kept[r]->addData(key, value);
        for (auto [graph, epoch] :
             {std::pair{m_best[r], run.best}, std::pair{m_last[r], run.last}}) {
            graph->data()->clear();
            if (epoch != PlotModel::NoEpoch)
                for (const auto& [key, value] : m_model.markerPoints(int(r), epoch))
                    graph->addData(key, value);
        }
    }
    m_restart->data()->clear();
    for (const auto& c : m_model.curves()) {
        // A restart of the run's own: not a fork's join, not a branch leaving.
        const bool restart = isOwn(c) && c.curve.anchored() && *c.curve.parentSegment >= 0;
        const int i = restart ? c.series.entryOfPoint(0) : -1;
        if (i < 0)
            continue;
        const double value = (look.smoothing ? c.series.smoothed() : c.series.raw())[i];
        if (std::isfinite(value) && (!look.logScale || value > 0))
            m_restart->addData(c.series.keys()[i], value);
    }
    updateLegend(look);
}

void CurveGraphs::updateLegend(Look look)
{
    // Only what is drawn: a curve without a drawable point, or a marker kind
    // with no marker on screen, gets no entry. One entry per run and metric, not
    // per restart; one per superseded branch; none for a fork's lead-in.
    std::set<std::pair<int, int>> named;
    std::set<std::pair<int, int>> branches;
    for (std::size_t i = 0; i < m_model.curves().size(); ++i) {
        const auto& c = m_model.curves()[i];
        const QVector<double>& values = look.smoothing ? c.series.smoothed() : c.series.raw();
        const bool drawn = std::any_of(values.begin(), values.end(), [&](double v) {
            return std::isfinite(v) && (!look.logScale || v > 0);
        });
        m_smooth[i]->removeFromLegend();
        m_tail[i]->removeFromLegend();
        if (drawn && isOwn(c) && named.insert({c.run, c.metric}).second)
            m_smooth[i]->addToLegend();
        if (drawn && c.curve.kind == MetricCurve::Kind::Superseded &&
            branches.insert({c.run, c.curve.branch}).second)
            m_tail[i]->addToLegend();
    }
    const auto anyData = [](const std::vector<QCPGraph*>& graphs) {
        return std::any_of(graphs.begin(), graphs.end(),
                           [](const QCPGraph* g) { return !g->data()->isEmpty(); });
    };
    const bool curves = !named.empty() || !branches.empty();
    const std::pair<QCPGraph*, bool> entries[] = {
        {m_kept.back(), curves && anyData(m_kept)},
        {m_best.back(), curves && anyData(m_best)},
        {m_last.back(), curves && anyData(m_last)},
        {m_restart, curves && !m_restart->data()->isEmpty()}};
    for (const auto& [graph, shown] : entries) {
        if (shown)
            graph->addToLegend();
        else
            graph->removeFromLegend();
    }
    m_plot->legend->setVisible(curves);
}

void CurveGraphs::applyTheme(const PlotTheme& theme)
{
    for (std::size_t i = 0; i < m_model.curves().size(); ++i) {
        const auto& c = m_model.curves()[i];
        const QColor colour = theme.runColour(c.run);
        const Qt::PenStyle style = PlotTheme::metricStyle(c.metric);
        const int points = c.series.pointCount();
        // Wide antialiased pens are slow on dense polylines and do not help there.
        m_smooth[i]->setPen(QPen(colour, points <= kThickUpTo ? 1.8 : 1.0, style));
        const bool lead = c.curve.kind == MetricCurve::Kind::LeadIn;
        m_tail[i]->setPen(lead ? QPen(theme.faded(colour), 1.0, style)
                               : QPen(theme.faded(colour), 1.2, style));
        m_raw[i]->setPen(QPen(theme.faint(colour), 1.0, style));
        // Short curves show their points: an epoch between two gaps is otherwise
        // invisible. A lead-in is only context: a plain line.
        const auto dots = points <= kScatterUpTo && !lead
                              ? QCPScatterStyle(QCPScatterStyle::ssDisc, 4)
                              : QCPScatterStyle();
        m_smooth[i]->setScatterStyle(dots);
        m_tail[i]->setScatterStyle(dots);
    }
    for (std::size_t r = 0; r < m_best.size(); ++r) {
        const QColor colour = r < m_model.runs().size() ? theme.runColour(int(r)) : theme.axis();
        m_best[r]->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond,
                                                   QPen(theme.text(), 1.2), QBrush(colour), 11));
        m_last[r]->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(colour, 2.2), Qt::NoBrush, 13));
        m_kept[r]->setScatterStyle(QCPScatterStyle(
            QCPScatterStyle::ssSquare, QPen(theme.background(), 1.0), QBrush(colour), 7));
    }
    if (m_restart)
        m_restart->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssTriangleInverted,
                                                   QPen(theme.text(), 1.4),
                                                   QBrush(theme.background()), 12));
}

QStringList CurveGraphs::legendEntries() const
{
    QStringList out;
    for (int i = 0; i < m_plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(m_plot->legend->item(i)))
            out << item->plottable()->name();
    return out;
}

int CurveGraphs::checkpointMarkerCount() const
{
    int n = 0;
    for (const QCPGraph* g : m_kept)
        n += g->dataCount();
    return n;
}

int CurveGraphs::restartMarkerCount() const
{
    return m_restart ? m_restart->dataCount() : 0;
}

QPen CurveGraphs::pen(std::size_t i) const
{
    return i < m_smooth.size() ? lineOf(i)->pen() : QPen();
}

int CurveGraphs::dataCount(std::size_t i) const
{
    if (i >= m_smooth.size())
        return 0;
    return m_smooth[i]->dataCount() + m_tail[i]->dataCount();
}

} // namespace ckpt

namespace ckpt {

QList<QPointF> CurveGraphs::data(std::size_t i) const
{
    QList<QPointF> out;
    if (i < m_smooth.size())
        for (const QCPGraph* g : {m_smooth[i], m_tail[i]})
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                out << QPointF(it->key, it->value);
    return out;
}

std::pair<double, double> CurveGraphs::keyWindow() const
{
    return {m_plot->xAxis->range().lower, m_plot->xAxis->range().upper};
}

} // namespace ckpt
