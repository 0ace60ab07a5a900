#include "plot/BranchCurves.h"

#include "plot/CurveBuilder.h"

#include <algorithm>
#include <iterator>
#include <optional>

namespace ckpt {

namespace {

// Puts `point` first. Built as a new vector: GCC 12 at -O3 sees a possible null
// in vector::insert at begin() here (-Wnull-dereference, a false positive).
void prepend(std::vector<CurvePoint>& points, CurvePoint point)
{
    std::vector<CurvePoint> out;
    out.reserve(points.size() + 1);
    out.push_back(point);
    out.insert(out.end(), points.begin(), points.end());
    points = std::move(out);
}

std::vector<CurvePoint> pointsOf(const HistoryBranch& branch, std::string_view metric)
{
    std::vector<CurvePoint> out;
    for (const HistoryRow& row : branch.rows)
        if (const auto value = row.value(metric))
            out.push_back(CurvePoint{row.epoch, *value, row.wallTime, *row.sourceOf(metric)});
    return out;
}

// The curve's own point at `epoch`: an anchor is its parent's.
const CurvePoint* pointAt(const MetricCurve& curve, int epoch)
{
    const auto it =
        std::find_if(curve.points.begin() + (curve.anchored() ? 1 : 0), curve.points.end(),
                     [&](const CurvePoint& p) { return p.epoch == epoch; });
    return it == curve.points.end() ? nullptr : &*it;
}

void cutDeadEnd(MetricCurve& curve)
{
    const int after = *curve.supersededAfter;
    std::erase_if(curve.points, [&](const CurvePoint& p) { return p.epoch > after; });
    curve.supersededAfter.reset();
}

void addLeadIn(std::vector<MetricCurve>& curves, int index, const HistoryBranch& branch,
               std::string_view metric)
{
    MetricCurve lead;
    lead.metric = std::string(metric);
    lead.kind = MetricCurve::Kind::LeadIn;
    lead.branch = index;
    lead.segment = MetricCurve::kLeadInSegment;
    lead.points = pointsOf(branch, metric);
    std::erase_if(lead.points, [&](const CurvePoint& p) { return p.epoch > branch.epoch; });
    std::optional<CurvePoint> join;
    if (!lead.points.empty() && lead.points.back().epoch == branch.epoch)
        join = lead.points.back();
    // The run's own points up to the fork epoch are its copy of the parent's
    // (the one at the epoch itself gives way to the parent's, the join).
    const int keepFrom = join ? branch.epoch + 1 : branch.epoch;
    for (auto& curve : curves)
        if (curve.kind == MetricCurve::Kind::Own && !curve.anchored())
            std::erase_if(curve.points, [&](const CurvePoint& p) { return p.epoch < keepFrom; });
    std::erase_if(curves, [](const MetricCurve& c) { return c.points.empty(); });
    if (join && !curves.empty() && curves.front().kind == MetricCurve::Kind::Own &&
        !curves.front().anchored() && curves.front().points.front().epoch > branch.epoch) {
        prepend(curves.front().points, *join);
        curves.front().parentSegment = MetricCurve::kLeadInSegment;
    }
    if (!lead.points.empty()) {
        std::vector<MetricCurve> withLead;
        withLead.reserve(curves.size() + 1);
        withLead.push_back(std::move(lead));
        std::move(curves.begin(), curves.end(), std::back_inserter(withLead));
        curves = std::move(withLead);
    }
}

void addSuperseded(std::vector<MetricCurve>& curves, const MetricHistory& history, int index,
                   const HistoryBranch& branch, std::string_view metric)
{
    const int from = branch.epoch;
    MetricCurve old;
    old.metric = std::string(metric);
    old.kind = MetricCurve::Kind::Superseded;
    old.branch = index;
    old.segment = MetricCurve::supersededSegment(index);
    old.points = pointsOf(branch, metric);
    std::erase_if(old.points, [&](const CurvePoint& p) { return p.epoch < from; });
    if (old.points.empty() || old.points.back().epoch <= from)
        return;
    // The folder is what this restart removed: the run's own dead end of it goes.
    for (auto& curve : curves)
        if (curve.kind == MetricCurve::Kind::Own && curve.supersededAfter == from)
            cutDeadEnd(curve);
    // It leaves the run's newest curve that reached `from` before restarting there.
    const MetricCurve* parent = nullptr;
    for (const auto& curve : curves)
        if (curve.kind == MetricCurve::Kind::Own && pointAt(curve, from))
            parent = &curve;
    if (parent && old.points.front().epoch == from) {
        old.points.front() = *pointAt(*parent, from);
        old.parentSegment = parent->segment;
    }
    // A restart whose logs lack the epoch it resumed from starts from the branch's value.
    if (old.points.front().epoch == from)
        for (auto& curve : curves) {
            const auto info =
                std::find_if(history.segments.begin(), history.segments.end(),
                             [&](const HistorySegment& s) { return s.index == curve.segment; });
            if (curve.kind == MetricCurve::Kind::Own && !curve.anchored() &&
                info != history.segments.end() && info->resumedFrom == from &&
                curve.points.front().epoch > from)
                prepend(curve.points, old.points.front());
        }
    curves.push_back(std::move(old));
}

} // namespace

void BranchCurves::add(std::vector<MetricCurve>& curves, const MetricHistory& history,
                       std::string_view metric, bool showSuperseded)
{
    for (std::size_t i = 0; i < history.branches.size(); ++i) {
        const HistoryBranch& branch = history.branches[i];
        if (branch.kind == HistoryBranch::Kind::ForkLeadIn)
            addLeadIn(curves, int(i), branch, metric);
        else if (showSuperseded)
            addSuperseded(curves, history, int(i), branch, metric);
    }
    if (!showSuperseded)
        for (auto& curve : curves)
            if (curve.supersededAfter)
                cutDeadEnd(curve);
    const int step = CurveBuilder::joinStep(curves);
    for (auto& curve : curves)
        curve.joinStep = step;
}

} // namespace ckpt
