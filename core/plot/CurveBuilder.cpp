#include "plot/CurveBuilder.h"

#include <algorithm>
#include <map>

namespace ckpt {

namespace {

// The point a restart of `segment` branches from: the value at `epoch` of the
// latest earlier segment that recorded it.
const CurvePoint* anchorFor(const std::vector<MetricCurve>& built, int segment, int epoch,
                            int* parent)
{
    for (auto it = built.rbegin(); it != built.rend(); ++it) {
        if (it->segment >= segment)
            continue;
        const auto& pts = it->points;
        const auto hit = std::lower_bound(pts.begin(), pts.end(), epoch,
                                          [](const CurvePoint& p, int e) { return p.epoch < e; });
        if (hit != pts.end() && hit->epoch == epoch) {
            *parent = it->segment;
            return &*hit;
        }
    }
    return nullptr;
}

} // namespace

std::vector<MetricCurve> CurveBuilder::build(const MetricHistory& history, std::string_view metric)
{
    // Rows are documented as sorted by (segment, epoch); group defensively anyway,
    // without a map lookup per row while the segment stays the same.
    std::map<int, std::vector<CurvePoint>> bySegment;
    if (history.segments.size() <= 1 && !history.rows.empty()) {
        // One process: room for every row, without counting them first.
        bySegment[history.rows.front().segment].reserve(history.rows.size());
    } else {
        // Room for every row of each segment first: no growing a million points.
        std::map<int, std::size_t> rowsOf;
        for (std::size_t i = 0; i < history.rows.size();) {
            std::size_t j = i + 1;
            while (j < history.rows.size() && history.rows[j].segment == history.rows[i].segment)
                ++j;
            rowsOf[history.rows[i].segment] += j - i;
            i = j;
        }
        for (const auto& [segment, rows] : rowsOf)
            bySegment[segment].reserve(rows);
    }
    std::vector<CurvePoint>* into = nullptr;
    int current = 0;
    for (const auto& row : history.rows) {
        const MetricSample* sample = row.sample(metric);
        if (!sample)
            continue;
        if (!into || row.segment != current) {
            current = row.segment;
            into = &bySegment[current];
        }
        into->push_back(CurvePoint{row.epoch, sample->value, row.wallTime, sample->source});
    }
    std::erase_if(bySegment, [](const auto& entry) { return entry.second.empty(); });

    std::vector<MetricCurve> curves;
    for (auto& [segment, points] : bySegment) {
        const auto byEpoch = [](const CurvePoint& a, const CurvePoint& b) {
            return a.epoch < b.epoch;
        };
        // One pass over the (usually) strictly increasing epochs decides both.
        const bool increasing =
            std::adjacent_find(points.begin(), points.end(), [](const auto& a, const auto& b) {
                return a.epoch >= b.epoch;
            }) == points.end();
        if (!increasing) {
            std::stable_sort(points.begin(), points.end(), byEpoch);
            // One value per epoch within a segment: a repeated epoch keeps the last row.
            std::vector<CurvePoint> unique;
            for (const auto& p : points) {
                if (!unique.empty() && unique.back().epoch == p.epoch)
                    unique.back() = p;
                else
                    unique.push_back(p);
            }
            points = std::move(unique);
        }
        std::vector<CurvePoint>& unique = points;

        MetricCurve curve;
        curve.metric = std::string(metric);
        curve.segment = segment;
        // (Debian's clang 14 cannot capture a structured binding: copied by name.)
        const auto info =
            std::find_if(history.segments.begin(), history.segments.end(),
                         [index = segment](const HistorySegment& s) { return s.index == index; });
        if (info != history.segments.end() && info->resumedFrom &&
            unique.front().epoch > *info->resumedFrom) {
            int parent = 0;
            if (const auto* anchor = anchorFor(curves, segment, *info->resumedFrom, &parent)) {
                curve.parentSegment = parent;
                curve.points.push_back(*anchor);
            }
        }
        if (curve.points.empty()) {
            curve.points = std::move(unique);
        } else {
            curve.points.reserve(1 + unique.size());
            curve.points.insert(curve.points.end(), unique.begin(), unique.end());
        }
        curves.push_back(std::move(curve));
    }

    const int step = joinStep(curves);
    for (auto& curve : curves) {
        curve.joinStep = step;
        if (!curve.anchored())
            continue;
        const int from = curve.points.front().epoch;
        for (auto& parent : curves)
            if (parent.segment == *curve.parentSegment &&
                (!parent.supersededAfter || from < *parent.supersededAfter))
                parent.supersededAfter = from;
    }
    return curves;
}

int CurveBuilder::joinStep(std::span<const MetricCurve> curves)
{
    std::map<int, int> counts;
    for (const auto& curve : curves) {
        // Steps come in long runs of the same one: counted per run, not per point.
        int run = 0;
        int runLength = 0;
        for (std::size_t i = 1; i < curve.points.size(); ++i) {
            const int step = curve.points[i].epoch - curve.points[i - 1].epoch;
            if (step == run) {
                ++runLength;
                continue;
            }
            if (run > 0)
                counts[run] += runLength;
            run = step;
            runLength = 1;
        }
        if (run > 0)
            counts[run] += runLength;
    }
    int best = 1;
    int bestCount = 0;
    for (const auto& [step, count] : counts)
        if (count > bestCount) { // ascending steps: ties keep the smaller one
            best = step;
            bestCount = count;
        }
    return best;
}

} // namespace ckpt
