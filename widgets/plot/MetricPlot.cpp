#include "plot/MetricPlot.h"

#include "io/AtomicFile.h"
#include "plot/AxisFit.h"
#include "plot/CurveGraphs.h"
#include "plot/DurationTicker.h"
#include "plot/PlotExport.h"
#include "plot/PlotSeries.h"
#include "plot/PlotTheme.h"
#include "plot/WallTimeTicker.h"

#include <QCursor>
#include <QEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QStackedLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

namespace ckpt {

namespace {
constexpr double kPickRadius = 10.0; // pixels
constexpr int kClickSlop = 4;        // pixels a click may move and still be a click

} // namespace

MetricPlot::MetricPlot(QWidget* parent) : QWidget(parent)
{
    m_loader = new PlotLoader(this);
    connect(m_loader, &PlotLoader::loaded, this, &MetricPlot::onLoaded);
    m_plot = new QCustomPlot(this);
    m_graphs = std::make_unique<CurveGraphs>(m_plot, m_model);
    m_plot->setMouseTracking(true);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->setNoAntialiasingOnDrag(true);
    m_plot->layer(QStringLiteral("overlay"))->setMode(QCPLayer::lmBuffered);

    // The legend lives in its own row under the axes so it never hides data.
    auto* legendRow = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(1, 0, legendRow);
    legendRow->setMargins(QMargins(6, 0, 6, 6));
    legendRow->addElement(0, 0, m_plot->legend);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setWrap(3);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);

    m_tracer = new QCPItemTracer(m_plot);
    m_tracer->setStyle(QCPItemTracer::tsCircle);
    m_tracer->setSize(9);
    m_label = new QCPItemText(m_plot);
    m_label->position->setType(QCPItemPosition::ptAbsolute);
    m_label->setPadding(QMargins(6, 4, 6, 4));
    m_label->setTextAlignment(Qt::AlignLeft);
    m_selectionLine = new QCPItemStraightLine(m_plot);
    for (QCPAbstractItem* item :
         std::initializer_list<QCPAbstractItem*>{m_tracer, m_label, m_selectionLine}) {
        item->setLayer(QStringLiteral("overlay"));
        item->setVisible(false);
    }

    connect(m_plot, &QCustomPlot::mouseMove, this, &MetricPlot::onMouseMove);
    m_plot->installEventFilter(this);
    connect(m_plot, &QCustomPlot::mousePress, this, &MetricPlot::onMousePress);
    connect(m_plot, &QCustomPlot::mouseRelease, this, &MetricPlot::onMouseRelease);
    connect(m_plot, &QCustomPlot::mouseWheel, this, [this] { m_userRange = true; });
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, &MetricPlot::resetView);
    connect(m_plot, &QCustomPlot::afterReplot, this,
            [this] { m_loader->discard(std::move(m_retired)); });
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        if (!m_applyingRange)
            redecimate();
    });

    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    m_empty->setAutoFillBackground(true);
    m_empty->setBackgroundRole(QPalette::Base);
    m_empty->setForegroundRole(QPalette::PlaceholderText);

    m_stack = new QStackedLayout(this);
    m_stack->setContentsMargins(0, 0, 0, 0);
    m_stack->addWidget(m_plot);
    m_stack->addWidget(m_empty);

    updateAxes();
    applyTheme();
    showEmptyStateIfNeeded();
}

MetricPlot::~MetricPlot() = default;

void MetricPlot::setRuns(std::vector<RunHistory> runs)
{
    std::vector<PlotModel::Run> modelRuns;
    for (auto& r : runs) {
        PlotModel::Run run;
        run.id = r.id;
        run.name = r.name;
        run.history = r.history ? std::move(r.history) : std::make_shared<MetricHistory>();
        modelRuns.push_back(std::move(run));
    }
    m_userRange = false;
    m_deferred.clear(); // they were for the runs being replaced
    build(std::move(modelRuns));
}

void MetricPlot::build(std::vector<PlotModel::Run> runs)
{
    if (PlotModel::rowCount(runs) > kBuildHereUpTo) {
        m_target = runs;
        m_loader->load(std::move(runs), m_settings, m_graphs->buckets());
        return;
    }
    m_loader->cancel();
    m_target.clear();
    // The curves shown may be big: freed on the pool after the next paint.
    m_loader->discard(
        std::exchange(m_retired, std::make_unique<PlotModel>(std::exchange(m_model, PlotModel{}))));
    PlotLoader::configure(m_model, m_settings);
    m_model.setRuns(std::move(runs));
    updateAxes();
    rebuildGraphs();
}

void MetricPlot::reshape(bool curvesChange)
{
    if (m_loader->busy()) {
        m_loader->load(m_target, m_settings, m_graphs->buckets()); // edits made meanwhile wait
        return;
    }
    if (PlotModel::rowCount(m_model.runs()) > kBuildHereUpTo) {
        build(m_model.runs());
        return;
    }
    PlotLoader::configure(m_model, m_settings);
    updateAxes();
    if (curvesChange)
        rebuildGraphs();
    else
        refreshData();
}

bool MetricPlot::deferred(ModelEdit edit)
{
    if (!m_loader->busy())
        return false;
    m_deferred.push_back(std::move(edit));
    return true;
}

void MetricPlot::onLoaded()
{
    std::unique_ptr<PlotLoader::Built> built = m_loader->take();
    if (!built)
        return;
    std::swap(m_model, built->model);
    // References this thread holds go here, so that a live row does not find
    // its history shared and copy it; the rest is freed on the pool once the
    // new curves are painted (freeing a million points meanwhile slows the paint).
    built->model.releaseSharedHistories();
    m_target.clear();
    m_loader->discard(
        std::exchange(m_retired, std::make_unique<PlotModel>(std::move(built->model))));
    const bool asBuilt = built->settings == m_settings && m_deferred.empty();
    if (!asBuilt)
        PlotLoader::configure(m_model, m_settings);
    for (auto& edit : std::exchange(m_deferred, {}))
        edit(m_model);
    updateAxes();
    rebuildGraphs(asBuilt ? built.get() : nullptr);
    emit loaded();
}

void MetricPlot::updateRun(const QString& runId, const QString& name, MetricHistory history)
{
    updateRun(runId, name, std::make_shared<MetricHistory>(std::move(history)));
}

void MetricPlot::updateRun(const QString& runId, const QString& name,
                           std::shared_ptr<const MetricHistory> shared)
{
    if (deferred([=](PlotModel& m) { m.updateRun(runId, name, shared); }))
        return;
    if (m_model.extends(runId, name, *shared)) {
        apply(m_model.updateRun(runId, name, shared)); // O(new rows)
        return;
    }
    std::vector<PlotModel::Run> runs = m_model.runs();
    auto run = std::find_if(runs.begin(), runs.end(), [&](auto& r) { return r.id == runId; });
    if (run == runs.end()) {
        runs.emplace_back();
        run = runs.end() - 1;
        run->id = runId;
    }
    run->name = name;
    run->history = std::move(shared);
    build(std::move(runs));
}

void MetricPlot::appendRow(const QString& runId, const HistoryRow& row)
{
    if (!deferred([=](PlotModel& m) { m.appendRow(runId, row); }))
        apply(m_model.appendRow(runId, row));
}

void MetricPlot::apply(const PlotModel::Change& change)
{
    if (change.rebuilt) {
        rebuildGraphs();
        return;
    }
    for (const auto& g : change.grown)
        m_graphs->grow(std::size_t(g.curve), g.from, look());
    // Refit only when the new points fall outside the view: the axes do not creep
    // by a fraction of an epoch with every update.
    const auto keys = m_model.keyRange();
    const auto values = m_model.valueRange();
    const QCPRange x = m_plot->xAxis->range();
    const QCPRange y = m_plot->yAxis->range();
    if (!x.contains(keys.lower) || !x.contains(keys.upper) || !y.contains(values.lower) ||
        !y.contains(values.upper))
        updateRanges();
    showEmptyStateIfNeeded(); // the first drawable point may just have come
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void MetricPlot::removeRun(const QString& runId)
{
    if (deferred([=](PlotModel& m) { m.removeRun(runId); }) || m_model.findRun(runId) < 0)
        return;
    std::vector<PlotModel::Run> runs = m_model.runs();
    runs.erase(runs.begin() + m_model.findRun(runId));
    build(std::move(runs));
}

void MetricPlot::setMetrics(const QStringList& metrics)
{
    if (metrics == m_settings.metrics)
        return;
    m_settings.metrics = metrics;
    reshape(true);
}

void MetricPlot::setMarkers(const QString& runId, int lastEpoch, int bestEpoch)
{
    if (deferred([=](PlotModel& m) { m.setMarkers(runId, lastEpoch, bestEpoch); }))
        return;
    if (m_model.setMarkers(runId, lastEpoch, bestEpoch)) {
        updateMarkers();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void MetricPlot::setCheckpoints(const QString& runId, const std::vector<int>& epochs)
{
    if (deferred([=](PlotModel& m) { m.setCheckpoints(runId, epochs); }))
        return;
    if (m_model.setCheckpoints(runId, epochs)) {
        updateMarkers();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void MetricPlot::setSmoothing(double weight)
{
    weight = std::isfinite(weight) ? std::clamp(weight, 0.0, 0.999) : 0.0;
    if (weight == m_settings.smoothing)
        return;
    m_settings.smoothing = weight;
    reshape(false);
}

void MetricPlot::setLogScale(bool on)
{
    if (on == m_settings.logY)
        return;
    m_settings.logY = on;
    reshape(false);
}

void MetricPlot::setXAxis(XAxis mode)
{
    if (PlotXAxis(int(mode)) == m_settings.xAxis)
        return;
    m_settings.xAxis = PlotXAxis(int(mode));
    m_userRange = false;
    reshape(false);
}

void MetricPlot::rebuildGraphs(const PlotLoader::Built* built)
{
    // The hover belongs to graphs that are about to go.
    m_hoverText.clear();
    m_tracer->setVisible(false);
    m_label->setVisible(false);
    m_graphs->rebuild();
    refreshData(built);
}

void MetricPlot::refreshData(const PlotLoader::Built* built)
{
    updateRanges(); // first: the reduction of long series depends on the window
    // Reduced on the pool when that was for this window and width.
    const QCPRange x = m_plot->xAxis->range();
    const bool reduced = built && built->window.lower == x.lower &&
                         built->window.upper == x.upper && built->buckets == m_graphs->buckets();
    for (std::size_t i = 0; i < m_model.curves().size(); ++i)
        if (reduced)
            m_graphs->setData(i, built->reduced[i], look());
        else
            m_graphs->setData(i, look());
    applyTheme(); // pen widths and dots depend on the point counts
    updateMarkers();
    updateSelection();
    showEmptyStateIfNeeded();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

CurveGraphs::Look MetricPlot::look() const
{
    return {m_model.smoothing() > 0.0, m_model.logY()}; // what is shown
}

void MetricPlot::setShowSuperseded(bool on)
{
    if (on == m_settings.showSuperseded)
        return;
    m_settings.showSuperseded = on;
    reshape(true);
}

MetricCurve::Kind MetricPlot::graphKind(int graph) const
{
    return graph >= 0 && graph < graphCount() ? m_model.curves()[std::size_t(graph)].curve.kind
                                              : MetricCurve::Kind::Own;
}

QList<int> MetricPlot::graphEpochs(int graph) const
{
    QList<int> out;
    if (graph >= 0 && graph < graphCount())
        for (const CurvePoint& p : m_model.curves()[std::size_t(graph)].curve.points)
            out << p.epoch;
    return out;
}

void MetricPlot::redecimate()
{
    m_graphs->redecimate(look());
}

void MetricPlot::updateMarkers()
{
    m_graphs->updateMarkers(look());
}

QStringList MetricPlot::xTickLabels() const
{
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
    const QVector<QString> labels = m_plot->xAxis->tickVectorLabels();
    return QStringList(labels.begin(), labels.end());
}

void MetricPlot::updateSelection()
{
    std::optional<double> key;
    if (m_selectedEpoch != NoEpoch)
        key = m_model.keyOfEpoch(m_model.findRun(m_selectedRun), m_selectedEpoch);
    m_selectionLine->setVisible(key.has_value());
    if (key) {
        // Two points on a vertical line; both positive so a log axis takes them.
        m_selectionLine->point1->setCoords(*key, 1.0);
        m_selectionLine->point2->setCoords(*key, 2.0);
    }
}

void MetricPlot::updateRanges()
{
    if (m_userRange)
        return;
    const auto k = AxisFit::keys(m_model.keyRange(), m_model.xAxis());
    const auto v = AxisFit::values(m_model.valueRange(), m_model.logY());
    // A live append widens the window by one epoch: the points it adds are
    // appended to the reduced data as they are instead of reducing all again.
    m_applyingRange = true;
    m_plot->xAxis->setRange(k.lower, k.upper);
    m_plot->yAxis->setRange(v.lower, v.upper);
    m_applyingRange = false;
}

void MetricPlot::updateAxes()
{
    QCPAxis* x = m_plot->xAxis;
    switch (m_model.xAxis()) {
    case PlotXAxis::Epoch: {
        auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
        ticker->setTickStep(1.0);
        ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
        x->setTicker(ticker);
        x->setLabel(tr("epoch"));
        break;
    }
    case PlotXAxis::WallTime:
        x->setTicker(QSharedPointer<WallTimeTicker>::create());
        x->setLabel(tr("wall time"));
        break;
    case PlotXAxis::RelativeHours:
        x->setTicker(QSharedPointer<DurationTicker>::create());
        x->setLabel(tr("time since run start (h:mm)"));
        break;
    }
    QCPAxis* y = m_plot->yAxis;
    y->setScaleType(m_model.logY() ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    y->setTicker(m_model.logY() ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                                : QSharedPointer<QCPAxisTicker>::create());
    y->setLabel(m_model.metrics().size() == 1 ? m_model.metrics().front() : tr("value"));
}

void MetricPlot::applyTheme()
{
    const PlotTheme theme(palette());
    m_plot->setBackground(theme.background());
    m_plot->axisRect()->setBackground(theme.background());
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setBasePen(QPen(theme.axis()));
        axis->setTickPen(QPen(theme.axis()));
        axis->setSubTickPen(QPen(theme.axis()));
        axis->setTickLabelColor(theme.text());
        axis->setLabelColor(theme.text());
        axis->grid()->setPen(QPen(theme.grid(), 0, Qt::DotLine));
        axis->grid()->setZeroLinePen(QPen(theme.grid()));
    }
    m_plot->legend->setBrush(theme.legendBackground());
    m_plot->legend->setBorderPen(QPen(theme.legendBorder()));
    m_plot->legend->setTextColor(theme.text());
    m_graphs->applyTheme(theme);
    m_tracer->setPen(QPen(theme.text(), 1.5));
    m_label->setColor(theme.text());
    m_label->setBrush(theme.legendBackground());
    m_label->setPen(QPen(theme.legendBorder()));
    m_selectionLine->setPen(QPen(theme.highlight(), 1.5, Qt::DashLine));
}

void MetricPlot::showEmptyStateIfNeeded()
{
    // The model is rebuilt with every set of runs: the reason is kept here.
    const bool noRuns = m_model.runIds().isEmpty() && !m_noRuns.isEmpty();
    m_empty->setText(noRuns ? m_noRuns : m_model.emptyMessage());
    m_stack->setCurrentWidget(m_model.hasPoints() ? static_cast<QWidget*>(m_plot) : m_empty);
}

bool MetricPlot::showsEmptyState() const
{
    return m_stack->currentWidget() == m_empty;
}

QString MetricPlot::emptyStateText() const
{
    return m_empty->text();
}

void MetricPlot::setNoRunsMessage(const QString& text)
{
    m_noRuns = text;
    showEmptyStateIfNeeded();
}

PlotModel::Pick MetricPlot::pickAt(QPoint pos) const
{
    const QCPAxis* x = m_plot->xAxis;
    const QCPAxis* y = m_plot->yAxis;
    const double k1 = x->pixelToCoord(pos.x() - kPickRadius);
    const double k2 = x->pixelToCoord(pos.x() + kPickRadius);
    return m_model.pick(pos, kPickRadius, std::min(k1, k2), std::max(k1, k2),
                        [&](double key, double value) {
                            return QPointF(x->coordToPixel(key), y->coordToPixel(value));
                        });
}

void MetricPlot::onMouseMove(QMouseEvent* event)
{
    PlotModel::Pick pick;
    if (event->buttons() != Qt::NoButton)
        m_userRange = true; // panning
    else
        pick = pickAt(event->position().toPoint());
    m_hoverText.clear();
    if (pick.curve >= 0) {
        const PlotSeries& s = m_model.curves()[std::size_t(pick.curve)].series;
        const int i = pick.hit.entry;
        m_hoverText = m_model.describe(pick.curve, i);
        const double value = pick.hit.onSmoothed ? s.smoothed()[i] : s.raw()[i];
        m_tracer->position->setCoords(s.keys()[i], value);
        const QPointF px(m_plot->xAxis->coordToPixel(s.keys()[i]),
                         m_plot->yAxis->coordToPixel(value));
        // Keep the label inside the axes: open it towards the emptier quadrant.
        const QRect area = m_plot->axisRect()->rect();
        const bool left = px.x() > area.center().x();
        const bool below = px.y() < area.center().y();
        m_label->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) |
                                      (below ? Qt::AlignTop : Qt::AlignBottom));
        m_label->position->setCoords(px.x() + (left ? -12 : 12), px.y() + (below ? 12 : -12));
        m_label->setText(m_hoverText);
    }
    m_tracer->setVisible(pick.curve >= 0);
    m_label->setVisible(pick.curve >= 0);
    m_plot->layer(QStringLiteral("overlay"))->replot();
}

bool MetricPlot::eventFilter(QObject* watched, QEvent* event)
{
    // A Leave while the pointer is still over the plot (a child or a popup
    // taking it) keeps the label.
    if (watched == m_plot && event->type() == QEvent::Leave &&
        !m_plot->rect().contains(m_plot->mapFromGlobal(QCursor::pos())))
        hideHover();
    return QWidget::eventFilter(watched, event);
}

void MetricPlot::hideHover()
{
    if (!m_label->visible() && m_hoverText.isEmpty())
        return;
    m_hoverText.clear();
    m_tracer->setVisible(false);
    m_label->setVisible(false);
    m_plot->layer(QStringLiteral("overlay"))->replot();
}

void MetricPlot::onMousePress(QMouseEvent* event)
{
    m_pressPos = event->position().toPoint();
}

void MetricPlot::onMouseRelease(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (event->button() != Qt::LeftButton || (pos - m_pressPos).manhattanLength() > kClickSlop)
        return;
    const PlotModel::Pick pick = pickAt(pos);
    if (pick.curve < 0)
        return;
    const auto& c = m_model.curves()[std::size_t(pick.curve)];
    if (c.curve.kind != MetricCurve::Kind::Own)
        return; // another run's or a replaced epoch: nothing to select in this run's table
    const int epoch = c.curve.points[std::size_t(c.series.curvePoint(pick.hit.entry))].epoch;
    const QString runId = m_model.runs()[std::size_t(c.run)].id;
    selectEpoch(runId, epoch);
    emit epochClicked(runId, epoch);
}

void MetricPlot::selectEpoch(const QString& runId, int epoch)
{
    m_selectedRun = runId;
    m_selectedEpoch = epoch;
    updateSelection();
    m_plot->layer(QStringLiteral("overlay"))->replot();
}

void MetricPlot::clearSelection()
{
    selectEpoch(QString(), NoEpoch);
}

void MetricPlot::resetView()
{
    m_userRange = false;
    updateRanges();
    redecimate();
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void MetricPlot::replotNow()
{
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

void MetricPlot::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        applyTheme();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void MetricPlot::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    redecimate(); // one bucket per pixel
}

QSize MetricPlot::exportSize(QSize requested) const
{
    return PlotExport::size(m_plot, requested);
}

Result<QByteArray> MetricPlot::render(const QString& fileName, QSize requested) const
{
    return PlotExport::render(m_plot, fileName, requested);
}

Status MetricPlot::save(const QString& fileName, QSize size) const
{
    auto bytes = render(fileName, size);
    if (!bytes)
        return bytes.error();
    return writeFileAtomically(fileName.toStdString(),
                               std::string_view(bytes->constData(), std::size_t(bytes->size())));
}

QPoint MetricPlot::pointPosition(int graph, int point) const
{
    if (graph < 0 || graph >= graphCount())
        return {-1, -1};
    m_plot->replot(QCustomPlot::rpImmediateRefresh); // lays the axes out
    const PlotSeries& s = m_model.curves()[std::size_t(graph)].series;
    const int i = s.entryOfPoint(point);
    if (i < 0 || !std::isfinite(s.raw()[i]))
        return {-1, -1};
    const QPointF px(m_plot->xAxis->coordToPixel(s.keys()[i]),
                     m_plot->yAxis->coordToPixel(s.raw()[i]));
    return m_plot->mapTo(this, px.toPoint());
}

} // namespace ckpt
