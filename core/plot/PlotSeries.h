#pragma once

#include "plot/DebiasedEma.h"
#include "plot/MetricCurve.h"
#include "plot/MinMaxPyramid.h"

#include <QVector>

#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace ckpt {

enum class PlotXAxis
{
    Epoch,
    WallTime,
    RelativeHours
};

struct SeriesOptions
{
    PlotXAxis xAxis = PlotXAxis::Epoch;
    double smoothing = 0.0;  // EMA weight, 0..0.999
    bool logY = false;       // values <= 0 cannot be drawn and become breaks
    double timeOrigin = 0.0; // RelativeHours: keys are (wallTime - timeOrigin) / 3600
};

// Plain closed interval; `valid` is false until something was included.
struct SeriesRange
{
    double lower = std::numeric_limits<double>::infinity();
    double upper = -std::numeric_limits<double>::infinity();
    bool valid() const { return lower <= upper; }
    void include(double v)
    {
        lower = std::min(lower, v);
        upper = std::max(upper, v);
    }
    void include(const SeriesRange& r)
    {
        if (r.valid()) {
            include(r.lower);
            include(r.upper);
        }
    }
};

// One curve turned into the parallel arrays a plotting library wants: keys,
// raw values and smoothed values, with NaN entries where the line must break
// (the gap rule of MetricCurve, and values that cannot be drawn: non-finite, or
// <= 0 on a log axis). Points without a wall time are left out on time axes.
// On time axes the anchor of a restart is left out too: the process was not
// running between the resume point and its first new epoch, and a line across
// that downtime would read as training progress.
// Appending a point is O(1) amortised, so a live run does not rebuild its series.
class PlotSeries
{
public:
    static constexpr int Gap = -1;

    PlotSeries() = default;
    // `start` is the EMA state to continue from (a branch starts where its
    // parent's smoothing stood at the anchor; the anchor is then not added again).
    // `snapshotEpochs` lists the epochs whose EMA state later branches need.
    PlotSeries(const MetricCurve& curve, const SeriesOptions& options, const DebiasedEma* start,
               const std::vector<int>& snapshotEpochs = {});

    // Builds every curve of one metric, each branch continuing its parent's EMA.
    // Parents come before their branches (CurveBuilder's segment order).
    static std::vector<PlotSeries> buildAll(const std::vector<const MetricCurve*>& curves,
                                            const SeriesOptions& options);
    static std::vector<PlotSeries> buildAll(const std::vector<MetricCurve>& curves,
                                            const SeriesOptions& options);

    // Appends `curve.points.back()` (already pushed by the caller). Returns false
    // when the point does not extend the series at the end (an earlier epoch, or a
    // wall time before the last key): the caller must rebuild.
    bool appendLast(const MetricCurve& curve);

    const QVector<double>& keys() const { return m_keys; }
    const QVector<double>& raw() const { return m_raw; }
    const QVector<double>& smoothed() const { return m_smoothed; }
    // Where the extremes of raw() or smoothed() lie, and their NaN entries in
    // order: what the decimator needs to reduce any window in O(pixels log n).
    const MinMaxPyramid& summary(bool smoothed) const
    {
        return smoothed ? m_smoothedSummary : m_rawSummary;
    }
    const std::vector<int>& breaks(bool smoothed) const
    {
        return smoothed ? m_smoothedBreaks : m_rawBreaks;
    }
    // Index into the curve's points for data entry `i`, or Gap.
    int curvePoint(int i) const { return m_point[i]; }
    int size() const { return int(m_keys.size()); }
    // The data entry of the `point`-th placed point (gaps skipped), or -1.
    int entryOfPoint(int point) const;
    int pointCount() const { return m_placed; }
    // First data entry of the dead end (see MetricCurve::supersededAfter), or -1.
    int supersededFrom() const { return m_supersededFrom; }
    bool sorted() const { return m_sorted; }
    const SeriesRange& keyRange() const { return m_keyRange; }
    const SeriesRange& valueRange() const { return m_valueRange; }
    const DebiasedEma& ema() const { return m_ema; }
    // The EMA state right after the point at `epoch`, when listed in snapshotEpochs.
    const DebiasedEma* emaAt(int epoch) const;
    // Where `p` goes on the x axis; none on a time axis without a wall time.
    std::optional<double> keyOf(const CurvePoint& p) const;

private:
    void place(const MetricCurve& curve, std::size_t index, bool addToEma);

    SeriesOptions m_options;
    QVector<double> m_keys;
    QVector<double> m_raw;
    QVector<double> m_smoothed;
    MinMaxPyramid m_rawSummary;
    MinMaxPyramid m_smoothedSummary;
    std::vector<int> m_rawBreaks;
    std::vector<int> m_smoothedBreaks;
    std::vector<int> m_point;
    DebiasedEma m_ema;
    std::map<int, DebiasedEma> m_snapshots; // epoch -> state, for branches
    std::optional<int> m_lastEpoch;
    int m_placed = 0;
    int m_supersededFrom = -1;
    bool m_sorted = true;
    SeriesRange m_keyRange;
    SeriesRange m_valueRange;
};

} // namespace ckpt
