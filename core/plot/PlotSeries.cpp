#include "plot/PlotSeries.h"

#include <algorithm>
#include <cmath>

namespace ckpt {

namespace {
bool drawable(double v, bool logY)
{
    return std::isfinite(v) && (!logY || v > 0.0);
}
} // namespace

PlotSeries::PlotSeries(const MetricCurve& curve, const SeriesOptions& options,
                       const DebiasedEma* start, const std::vector<int>& snapshotEpochs)
    : m_options(options), m_ema(start ? *start : DebiasedEma(options.smoothing))
{
    for (int epoch : snapshotEpochs)
        m_snapshots.emplace(epoch, DebiasedEma(options.smoothing));
    m_keys.reserve(qsizetype(curve.points.size()));
    m_raw.reserve(qsizetype(curve.points.size()));
    m_smoothed.reserve(qsizetype(curve.points.size()));
    m_point.reserve(curve.points.size());
    for (std::size_t i = 0; i < curve.points.size(); ++i)
        place(curve, i, !(start && curve.anchored() && i == 0));

    // A flat series stays exactly flat (see DebiasedEma::smooth).
    const auto first = std::find_if(curve.points.begin(), curve.points.end(),
                                    [](const CurvePoint& p) { return std::isfinite(p.value); });
    const bool constant = std::all_of(curve.points.begin(), curve.points.end(), [&](auto& p) {
        return !std::isfinite(p.value) || p.value == first->value;
    });
    if (constant) {
        m_smoothed = m_raw;
        m_smoothed.detach(); // appends must not copy the whole series then
        m_smoothedBreaks = m_rawBreaks;
    }
    m_rawSummary.build(m_raw);
    // Without smoothing both are the same values (DebiasedEma with weight 0).
    if (m_ema.weight() == 0.0 && m_smoothedBreaks == m_rawBreaks)
        m_smoothedSummary = m_rawSummary;
    else
        m_smoothedSummary.build(m_smoothed);
}

std::vector<PlotSeries> PlotSeries::buildAll(const std::vector<MetricCurve>& curves,
                                             const SeriesOptions& options)
{
    std::vector<const MetricCurve*> pointers;
    pointers.reserve(curves.size());
    for (const auto& curve : curves)
        pointers.push_back(&curve);
    return buildAll(pointers, options);
}

std::vector<PlotSeries> PlotSeries::buildAll(const std::vector<const MetricCurve*>& curves,
                                             const SeriesOptions& options)
{
    std::vector<PlotSeries> out;
    out.reserve(curves.size());
    for (const MetricCurve* c : curves) {
        const MetricCurve& curve = *c;
        const DebiasedEma* start = nullptr;
        if (curve.anchored()) {
            for (std::size_t j = 0; j < out.size(); ++j)
                if (curves[j]->segment == *curve.parentSegment)
                    start = out[j].emaAt(curve.points.front().epoch);
        }
        std::vector<int> wanted;
        for (const MetricCurve* other : curves)
            if (other->parentSegment == curve.segment)
                wanted.push_back(other->points.front().epoch);
        out.emplace_back(curve, options, start, wanted);
    }
    return out;
}

const DebiasedEma* PlotSeries::emaAt(int epoch) const
{
    const auto it = m_snapshots.find(epoch);
    return it == m_snapshots.end() ? nullptr : &it->second;
}

int PlotSeries::entryOfPoint(int point) const
{
    int seen = -1;
    for (int i = 0; i < size(); ++i)
        if (m_point[std::size_t(i)] != Gap && ++seen == point)
            return i;
    return -1;
}

std::optional<double> PlotSeries::keyOf(const CurvePoint& p) const
{
    switch (m_options.xAxis) {
    case PlotXAxis::Epoch:
        return double(p.epoch);
    case PlotXAxis::WallTime:
        return p.wallTime;
    case PlotXAxis::RelativeHours:
        if (p.wallTime)
            return (*p.wallTime - m_options.timeOrigin) / 3600.0;
        return std::nullopt;
    }
    return std::nullopt;
}

void PlotSeries::place(const MetricCurve& curve, std::size_t index, bool addToEma)
{
    const CurvePoint& p = curve.points[index];
    const double smoothed = addToEma ? m_ema.add(p.value) : m_ema.value();
    if (!m_snapshots.empty())
        if (const auto it = m_snapshots.find(p.epoch); it != m_snapshots.end())
            it->second = m_ema;

    const bool timeAxis = m_options.xAxis != PlotXAxis::Epoch;
    if (timeAxis && index == 0 && curve.anchored())
        return;
    // The epoch axis inline: this runs once per point.
    const auto key =
        m_options.xAxis == PlotXAxis::Epoch ? std::optional<double>(p.epoch) : keyOf(p);
    if (!key)
        return;

    constexpr double nan = std::numeric_limits<double>::quiet_NaN();
    if (!m_keys.isEmpty()) {
        if (*key < m_keys.back())
            m_sorted = false;
        if (m_lastEpoch && p.epoch - *m_lastEpoch > curve.joinStep) {
            m_rawBreaks.push_back(int(m_keys.size()));
            m_smoothedBreaks.push_back(int(m_keys.size()));
            m_keys.push_back((m_keys.back() + *key) / 2.0);
            m_raw.push_back(nan);
            m_smoothed.push_back(nan);
            m_point.push_back(Gap);
        }
    }
    if (m_supersededFrom < 0 && curve.supersededAfter && p.epoch > *curve.supersededAfter)
        m_supersededFrom = int(m_keys.size());
    m_lastEpoch = p.epoch;
    const bool ok = drawable(p.value, m_options.logY);
    const bool smoothedOk = ok && drawable(smoothed, m_options.logY);
    if (!ok)
        m_rawBreaks.push_back(int(m_keys.size()));
    if (!smoothedOk)
        m_smoothedBreaks.push_back(int(m_keys.size()));
    m_keys.push_back(*key);
    m_raw.push_back(ok ? p.value : nan);
    m_smoothed.push_back(smoothedOk ? smoothed : nan);
    m_point.push_back(int(index));
    ++m_placed;
    if (ok) {
        m_keyRange.include(*key);
        m_valueRange.include(p.value);
    }
}

bool PlotSeries::appendLast(const MetricCurve& curve)
{
    if (curve.points.empty())
        return false;
    const CurvePoint& p = curve.points.back();
    if (m_lastEpoch && p.epoch <= *m_lastEpoch)
        return false;
    if (const auto key = keyOf(p); key && !m_keys.isEmpty() && *key < m_keys.back())
        return false;
    place(curve, curve.points.size() - 1, true);
    m_rawSummary.append(m_raw);
    m_smoothedSummary.append(m_smoothed);
    return true;
}

} // namespace ckpt
