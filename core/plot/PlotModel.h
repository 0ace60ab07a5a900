#pragma once

#include "model/MetricHistory.h"
#include "plot/MetricCurve.h"
#include "plot/PlotSeries.h"
#include "plot/PointPicker.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ckpt {

// What the metric plot shows, without any drawing: the runs, the chosen
// metrics, one curve (and its plot series) per run x metric x segment, and the
// display options that shape the series. The widget mirrors `curves()` into
// graphs; a live append reports which series grew so the widget adds only the
// new points.
class PlotModel
{
public:
    static constexpr int NoEpoch = -1;

    struct Run
    {
        QString id;
        QString name;
        // Shared and never changed in place while shared: handing the runs to a
        // background build copies pointers, not histories (see editable()).
        // Made with std::make_shared<MetricHistory>: a const object cannot be edited.
        std::shared_ptr<const MetricHistory> history = std::make_shared<MetricHistory>();
        int last = NoEpoch;
        int best = NoEpoch;
        std::optional<double> timeOrigin; // earliest wall time of the run
        // The epochs that still have a checkpoint on disk, ascending; nullopt:
        // not known (the plot then says nothing about what is on disk).
        std::optional<std::vector<int>> checkpoints{};
    };

    struct Curve
    {
        int run = 0;    // index into runs()
        int metric = 0; // index into metrics()
        MetricCurve curve;
        PlotSeries series;
    };

    // A series that grew by entries [from, series.size()).
    struct Growth
    {
        int curve = 0;
        int from = 0;
    };

    // Result of an update: either the curves were rebuilt (indices may have
    // changed) or some series grew in place.
    struct Change
    {
        bool rebuilt = false;
        std::vector<Growth> grown;
    };

    void setRuns(std::vector<Run> runs);
    // The rows of `runs`, their branches' included: what building them costs.
    static std::size_t rowCount(const std::vector<Run>& runs);
    // Whether updateRun() with this history would only append rows.
    bool extends(const QString& id, const QString& name, const MetricHistory& history) const;
    // Replaces a run's history, or adds the run. When the new history only adds
    // rows after the old ones (same segments, same (segment, epoch) rows first)
    // the rows are appended instead.
    Change updateRun(const QString& id, const QString& name, MetricHistory history);
    // The same with a history shared with its owner (the workspace's): kept
    // as it is, never copied; when it extends the run's, only its new rows are
    // appended to the model's own.
    Change updateRun(const QString& id, const QString& name,
                     std::shared_ptr<const MetricHistory> history);
    // Appends one row; grows the series in place when the row extends its
    // segment's curves, otherwise rebuilds. A row of an unknown segment is taken
    // as a fresh process (no branch point): restarts come through updateRun().
    Change appendRow(const QString& id, const HistoryRow& row);
    bool removeRun(const QString& id);
    // Drops the histories this model shares with another (before it is freed
    // elsewhere, so that the other's next live row does not copy its history).
    void releaseSharedHistories();
    bool setMarkers(const QString& id, int last, int best);
    // Which epochs still have a checkpoint (PlotModel::Run::checkpoints); true when changed.
    bool setCheckpoints(const QString& id, std::vector<int> epochs);
    // Whether the run's epoch has a checkpoint on disk (nullopt: not known).
    std::optional<bool> hasCheckpoint(int run, int epoch) const;

    void setMetrics(const QStringList& metrics);
    void setOptions(PlotXAxis xAxis, double smoothing, bool logY);
    // Whether the epochs restarts replaced are drawn (superseded branches and
    // the dead ends of restarted segments); on by default.
    void setShowSuperseded(bool on);
    // Consulted before each run's metric is built: once it returns true, the
    // rest is left unbuilt (a build overtaken by a newer one stops early and
    // is thrown away). Empty: always built whole.
    void setCancelCheck(std::function<bool()> cancelled) { m_cancelled = std::move(cancelled); }
    bool showSuperseded() const { return m_showSuperseded; }
    PlotXAxis xAxis() const { return m_xAxis; }
    double smoothing() const { return m_smoothing; }
    bool logY() const { return m_logY; }

    const std::vector<Run>& runs() const { return m_runs; }
    const std::vector<Curve>& curves() const { return m_curves; }
    const QStringList& metrics() const { return m_metrics; }
    QStringList availableMetrics() const;
    int findRun(const QString& id) const;
    bool hasPoints() const;

    // The data rectangle of every series (drawable values only).
    SeriesRange keyRange() const;
    SeriesRange valueRange() const;

    // Where to mark `epoch` of run `run`: per metric, the (key, value) of the
    // newest segment that recorded it, when drawable.
    std::vector<std::pair<double, double>> markerPoints(int run, int epoch) const;
    struct Pick
    {
        int curve = -1; // none when negative
        PointPicker::Hit hit;
    };
    // The drawn entry nearest to `pos` over all curves (see PointPicker::nearest).
    Pick pick(QPointF pos, double radius, double keyLower, double keyUpper,
              const PointPicker::ToPixel& toPixel) const;

    // What to show instead of empty axes.
    QString emptyMessage() const;
    QStringList runIds() const;

    // "run · metric (restart N)": names a curve in the legend and the hover.
    QString curveTitle(int curve) const;
    // The branch a curve draws (MetricCurve::branch), or null for the run's own.
    const HistoryBranch* branchOf(int curve) const;
    // The exact values behind data entry `entry` of a curve, for the hover.
    QString describe(int curve, int entry) const;
    // The x position of `epoch` of a run in the current axis mode.
    std::optional<double> keyOfEpoch(int run, int epoch) const;

private:
    // The curves of one run's metric (its history set: built from it; else
    // the curves are there and their series are built again).
    struct Group
    {
        int run = 0;
        int metric = 0;
        const MetricHistory* history = nullptr;
        std::vector<Curve> curves;
    };
    // Groups are built in parallel above this many rows in all.
    static constexpr std::size_t kParallelAbove = 20000;

    void rebuildCurves();
    void buildGroups(std::vector<Group>& groups);
    void collectMetricNames();
    // The run's history, copied first when a background build shares it.
    static MetricHistory& editable(Run& run);
    void rebuildSeries();
    bool appendFast(int run, const HistoryRow& row, Change& change);
    SeriesOptions optionsFor(const Run& run) const;

    std::vector<Run> m_runs;
    std::vector<Curve> m_curves;
    QStringList m_metrics;
    PlotXAxis m_xAxis = PlotXAxis::Epoch;
    double m_smoothing = 0.0;
    bool m_logY = false;
    bool m_showSuperseded = true;
    std::set<std::string> m_metricNames; // of every run, kept as rows come
    std::function<bool()> m_cancelled;
};

} // namespace ckpt
