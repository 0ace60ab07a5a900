#pragma once

#include "common/Result.h"
#include "model/MetricHistory.h"
#include "plot/CurveGraphs.h"
#include "plot/PlotLoader.h"
#include "plot/PlotModel.h"

#include <QByteArray>
#include <QList>
#include <QPen>
#include <QPoint>
#include <QSize>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>
#include <vector>

class QCPItemStraightLine;
class QCPItemText;
class QCPItemTracer;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QStackedLayout;

namespace ckpt {

// Plots the metric histories of one or more runs (QCustomPlot underneath).
//
// One graph per chosen metric, per run, per segment: a restarted run grows a new
// branch out of the epoch it resumed from, and the abandoned epochs of the
// previous process stay visible as a faded dead end. The epochs a restart moved
// aside (MetricHistory::branches) are drawn faded too, and a fork's curve grows
// out of its parent's epochs, drawn faint (see CurveGraphs). Runs differ by colour, metrics by
// line style; the legend sits below the plot so it never covers data.
// Epochs missing from a metric are not bridged (see CurveBuilder::joinStep), and
// values that cannot be drawn (NaN, infinities, <= 0 on a log axis) break the
// line. With smoothing on, the raw curve stays faint behind the smoothed one.
//
// Hover shows the exact value; a click emits epochClicked(); selectEpoch() marks
// an epoch with a vertical line. Wheel zooms, drag pans, double-click resets.
//
// The GUI thread's work follows what is drawn, not the raw points: the curves
// of more than kBuildHereUpTo rows (new runs, a replaced history, other
// metrics or options) are built on the pool (PlotLoader) and shown when ready
// (loaded()); until then the previous curves stay, and live rows, removals and
// markers wait to be applied to the new ones. A newer build drops an older one.
// Long series are handed to QCustomPlot reduced to the visible window through
// their summaries (CurveReduction, O(pixels log n)); an appended row costs
// O(1) (the graphs take the new points as they are).
class MetricPlot final : public QWidget
{
    Q_OBJECT
    Q_PROPERTY(double smoothing READ smoothing WRITE setSmoothing)
    Q_PROPERTY(bool logScale READ logScale WRITE setLogScale)
    Q_PROPERTY(XAxis xAxis READ xAxis WRITE setXAxis)

public:
    enum class XAxis
    {
        Epoch,
        WallTime,
        RelativeTime
    };
    Q_ENUM(XAxis)
    static constexpr int NoEpoch = -1;
    // Histories up to this many rows in all are built on the GUI thread.
    static constexpr std::size_t kBuildHereUpTo = 2000;

    struct RunHistory
    {
        RunHistory() = default;
        RunHistory(QString runId, QString runName, MetricHistory runHistory)
            : id(std::move(runId)), name(std::move(runName)),
              history(std::make_shared<MetricHistory>(std::move(runHistory)))
        {}
        // A history shared with its owner: kept, never copied nor changed.
        RunHistory(QString runId, QString runName, std::shared_ptr<const MetricHistory> shared)
            : id(std::move(runId)), name(std::move(runName)), history(std::move(shared))
        {}

        QString id;   // stable key (e.g. the run's root path)
        QString name; // shown in the legend and the hover text
        std::shared_ptr<const MetricHistory> history = std::make_shared<MetricHistory>();
    };

    explicit MetricPlot(QWidget* parent = nullptr);
    ~MetricPlot() override;

    // Replaces every run; the order gives the colours.
    void setRuns(std::vector<RunHistory> runs);
    // Adds a run or replaces its history. When the new history only extends the
    // old one (rows appended to the last segment) the graphs are extended in place.
    void updateRun(const QString& runId, const QString& name, MetricHistory history);
    // The same with a history shared with its owner (never copied nor changed).
    void updateRun(const QString& runId, const QString& name,
                   std::shared_ptr<const MetricHistory> history);
    // The live path: one more row for a run already shown, appended without
    // rebuilding the graphs when it extends the run's last segment (O(new points)).
    // A restart (a new segment) should come through updateRun(), which knows
    // the epoch it resumed from.
    void appendRow(const QString& runId, const HistoryRow& row);
    void removeRun(const QString& runId);
    QStringList runIds() const { return m_model.runIds(); }

    // Metrics to show, in legend order. Metrics a run lacks are skipped for it.
    void setMetrics(const QStringList& metrics);
    QStringList metrics() const { return m_settings.metrics; }
    // Every metric of the shown runs, sorted (for a metric picker).
    QStringList availableMetrics() const { return m_model.availableMetrics(); }

    // Marks the run's `last` and `best` epochs on every shown curve, at the value
    // of the newest segment that trained that epoch; NoEpoch hides one. Cheap:
    // call it after every live update.
    void setMarkers(const QString& runId, int lastEpoch, int bestEpoch);
    // The run's epochs that still have a checkpoint on disk (ascending): drawn
    // as squares on its curves, and the hover says which epochs have none.
    void setCheckpoints(const QString& runId, const std::vector<int>& epochs);

    double smoothing() const { return m_settings.smoothing; }
    bool logScale() const { return m_settings.logY; }
    XAxis xAxis() const { return XAxis(int(m_settings.xAxis)); }
    bool showSuperseded() const { return m_settings.showSuperseded; }
    // A build on the pool has not been shown yet (the inspection below
    // describes the curves shown until then).
    bool isLoading() const { return m_loader->busy(); }

    // The plot as a file's bytes, at `size` pixels (PDF/SVG: points; the plot's
    // size on screen when empty). The format follows the name's suffix: png,
    // jpg, bmp, pdf or svg. Error: an unknown suffix or a failed rendering.
    Result<QByteArray> render(const QString& fileName, QSize size = {}) const;
    QSize exportSize(QSize requested = {}) const;
    // render() written to `fileName` (atomically). For tools and tests; the
    // GUI writes off its thread.
    Status save(const QString& fileName, QSize size = {}) const;

    // Inspection, for tests and tools. Graphs are the data curves (run x metric x
    // segment), in run, metric, segment order; faint raw copies and markers are
    // not counted. Points are epochs drawn (a branch's anchor included).
    int graphCount() const { return int(m_model.curves().size()); }
    int pointCount(int graph) const
    {
        return graph >= 0 && graph < graphCount()
                   ? m_model.curves()[std::size_t(graph)].series.pointCount()
                   : 0;
    }
    QString graphName(int graph) const
    {
        return graph >= 0 && graph < graphCount() ? m_model.curveTitle(graph) : QString();
    }
    // What a graph draws: the run's own epochs, a superseded branch or a fork's lead-in.
    MetricCurve::Kind graphKind(int graph) const;
    // The epochs of a graph, in order (a branch's anchor included).
    QList<int> graphEpochs(int graph) const;
    // The pen its line is drawn with, and the entries handed to QCustomPlot.
    QPen graphPen(int graph) const
    {
        return graph >= 0 && graph < graphCount() ? m_graphs->pen(std::size_t(graph)) : QPen();
    }
    int graphDataCount(int graph) const
    {
        return graph >= 0 && graph < graphCount() ? m_graphs->dataCount(std::size_t(graph)) : 0;
    }
    // Those entries (the line and its faded part), and the key window shown.
    QList<QPointF> graphData(int graph) const
    {
        return graph >= 0 && graph < graphCount() ? m_graphs->data(std::size_t(graph))
                                                  : QList<QPointF>();
    }
    std::pair<double, double> keyWindow() const { return m_graphs->keyWindow(); }
    // Where the `point`-th epoch of `graph` is drawn (its raw value), in this
    // widget's coordinates; (-1, -1) when it is not drawn.
    QPoint pointPosition(int graph, int point) const;
    QString hoverText() const { return m_hoverText; }
    // Names in the legend, in order; markers drawn where restarts resumed; the
    // x axis's tick labels as last drawn.
    QStringList legendEntries() const { return m_graphs->legendEntries(); }
    int restartMarkerCount() const { return m_graphs->restartMarkerCount(); }
    int checkpointMarkerCount() const { return m_graphs->checkpointMarkerCount(); }
    QStringList xTickLabels() const;
    int selectedEpoch() const { return m_selectedEpoch; }
    bool showsEmptyState() const;
    // The text shown instead of empty axes.
    QString emptyStateText() const;
    // Says why there is no run to plot (none selected, no metric log) in place
    // of "drop a folder or pick a run"; empty restores that.
    void setNoRunsMessage(const QString& text);
    // Redraws now instead of at the next event loop pass.
    void replotNow();

public slots:
    // Weight of the debiased exponential moving average, 0 (off) .. 0.999.
    void setSmoothing(double weight);
    void setLogScale(bool on);
    void setXAxis(XAxis mode);
    // Draws or hides the epochs restarts replaced (superseded branches, dead ends).
    void setShowSuperseded(bool on);
    // Marks the epoch with a vertical line (the table selected it); no signal back.
    void selectEpoch(const QString& runId, int epoch);
    void clearSelection();
    // Fits the axes to the data again after zooming or panning.
    void resetView();

signals:
    // A click on a point of a curve (that epoch is then selected here too).
    void epochClicked(const QString& runId, int epoch);
    // Curves built on the pool are shown (the metrics available may have changed).
    void loaded();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    using ModelEdit = std::function<void(PlotModel&)>;
    // The curves of `runs` with the current settings: here when small, else on the pool.
    void build(std::vector<PlotModel::Run> runs);
    // The settings changed: the same runs built again.
    void reshape(bool curvesChange);
    // An edit of the runs: now, or once the build under way is shown.
    bool deferred(ModelEdit edit);
    void onLoaded();
    // New graphs for the model's curves, with the data `built` reduced when given.
    void rebuildGraphs(const PlotLoader::Built* built = nullptr);
    void refreshData(const PlotLoader::Built* built = nullptr);
    void redecimate();
    void apply(const PlotModel::Change& change);
    void updateMarkers();
    void updateSelection();
    void updateRanges();
    void updateAxes();
    void applyTheme();
    void showEmptyStateIfNeeded();
    void onMouseMove(QMouseEvent* event);
    // The hover label and tracer go when the pointer leaves the plot.
    void hideHover();
    void onMousePress(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    PlotModel::Pick pickAt(QPoint pos) const;
    CurveGraphs::Look look() const;

    PlotModel m_model; // what is shown
    PlotSettings m_settings;
    PlotLoader* m_loader = nullptr;
    std::vector<PlotModel::Run> m_target; // the runs of the build under way
    std::vector<ModelEdit> m_deferred;    // edits made since it started
    std::unique_ptr<PlotModel> m_retired; // replaced, freed after the next paint
    QCustomPlot* m_plot = nullptr;
    QLabel* m_empty = nullptr;
    QString m_noRuns;
    QStackedLayout* m_stack = nullptr;
    QCPItemTracer* m_tracer = nullptr;
    QCPItemText* m_label = nullptr;
    QCPItemStraightLine* m_selectionLine = nullptr;
    std::unique_ptr<CurveGraphs> m_graphs;
    bool m_userRange = false;
    bool m_applyingRange = false; // our own axis fit, not a zoom or pan
    QPoint m_pressPos;
    QString m_hoverText;
    QString m_selectedRun;
    int m_selectedEpoch = NoEpoch;
};

} // namespace ckpt
