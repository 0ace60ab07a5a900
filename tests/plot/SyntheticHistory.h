#pragma once

#include "model/MetricHistory.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// Metric histories made up for the plot tests, benchmark and preview.
namespace ckpt::test {

inline HistoryRow makeRow(int segment, int epoch,
                          std::vector<std::pair<std::string, double>> metrics,
                          std::optional<double> wallTime = {},
                          MetricSource source = MetricSource::TrainingLog)
{
    HistoryRow row;
    row.segment = segment;
    row.epoch = epoch;
    row.wallTime = wallTime;
    for (auto& [name, value] : metrics)
        row.samples.push_back(MetricSample{std::move(name), value, source});
    return row;
}

inline double syntheticLoss(int epoch, int segment)
{
    // A decaying loss with a deterministic wiggle; a restart lands a bit higher.
    return 0.1 + 2.0 * std::exp(-epoch / 6.0) + 0.05 * std::sin(epoch * 1.7) + 0.08 * segment;
}

// Segment 0 trains epochs 1..firstEnd; `last` pointed at resumedFrom, so
// segment 1 resumes there and trains resumedFrom+1..secondEnd. One minute per
// epoch, ten minutes of downtime before the restart.
inline MetricHistory twoSegmentHistory(int firstEnd = 12, int resumedFrom = 8, int secondEnd = 20)
{
    MetricHistory h;
    const double t0 = 1'700'000'000.0;
    h.segments.push_back(HistorySegment{0, {}, 1, firstEnd, {}});
    h.segments.push_back(HistorySegment{1, resumedFrom, resumedFrom + 1, secondEnd, {}});
    for (int e = 1; e <= firstEnd; ++e)
        h.rows.push_back(
            makeRow(0, e, {{"loss", syntheticLoss(e, 0)}, {"val_loss", syntheticLoss(e, 0) + 0.15}},
                    t0 + 60.0 * e));
    const double t1 = t0 + 60.0 * firstEnd + 600.0;
    for (int e = resumedFrom + 1; e <= secondEnd; ++e)
        h.rows.push_back(
            makeRow(1, e, {{"loss", syntheticLoss(e, 1)}, {"val_loss", syntheticLoss(e, 1) + 0.15}},
                    t1 + 60.0 * (e - resumedFrom)));
    return h;
}

// One segment of `epochs` epochs with the given metrics (cheap: for big sizes).
inline MetricHistory longHistory(int epochs, const std::vector<std::string>& metrics)
{
    MetricHistory h;
    h.segments.push_back(HistorySegment{0, {}, 1, epochs, {}});
    h.rows.reserve(std::size_t(epochs));
    for (int e = 1; e <= epochs; ++e) {
        HistoryRow row;
        row.epoch = e;
        row.wallTime = 1'700'000'000.0 + 30.0 * e;
        for (std::size_t m = 0; m < metrics.size(); ++m)
            row.samples.push_back(MetricSample{
                metrics[m], 1.0 / (1.0 + 1e-3 * e) + 0.02 * std::sin(e * 0.37 + double(m)),
                MetricSource::TrainingLog});
        h.rows.push_back(std::move(row));
    }
    return h;
}

// twoSegmentHistory() as the app loads it after a restart through the launcher:
// the epochs resumedFrom+1..firstEnd of segment 0 were moved aside into a
// superseded folder, whose logs kept them (a HistoryBranch).
inline MetricHistory restartedWithSupersededFolder(int firstEnd = 12, int resumedFrom = 8,
                                                   int secondEnd = 20)
{
    MetricHistory h = twoSegmentHistory(firstEnd, resumedFrom, secondEnd);
    HistoryBranch branch;
    branch.kind = HistoryBranch::Kind::Superseded;
    branch.epoch = resumedFrom;
    branch.time = "2026-11-24 10:24";
    branch.origin = "/runs/RUN001/ckpts/.ckpt-studio/superseded/20261124-102409";
    for (const auto& row : h.rows)
        if (row.segment == 0 && row.epoch >= resumedFrom)
            branch.rows.push_back(row);
    h.branches.push_back(std::move(branch));
    return h;
}

// A fork from epoch `forkEpoch` of twoSegmentHistory()'s first segment: its own
// process resumed there and trained forkEpoch+1..lastEpoch at another rate; its
// parent's epochs up to the fork are the lead-in branch.
inline MetricHistory forkedHistory(int forkEpoch = 6, int lastEpoch = 14)
{
    const MetricHistory parent = twoSegmentHistory();
    MetricHistory h;
    h.segments.push_back(HistorySegment{0, forkEpoch, forkEpoch + 1, lastEpoch, {}});
    const double t0 = 1'700'100'000.0;
    for (int e = forkEpoch + 1; e <= lastEpoch; ++e) {
        const double v = syntheticLoss(forkEpoch, 0) * std::pow(0.85, e - forkEpoch);
        h.rows.push_back(makeRow(0, e, {{"loss", v}, {"val_loss", v + 0.1}}, t0 + 60.0 * e));
    }
    HistoryBranch lead;
    lead.kind = HistoryBranch::Kind::ForkLeadIn;
    lead.epoch = forkEpoch;
    lead.time = "2026-11-24 10:25";
    lead.origin = "/runs/RUN001/ckpts";
    lead.name = "RUN001";
    for (const auto& row : parent.rows)
        if (row.segment == 0 && row.epoch <= forkEpoch)
            lead.rows.push_back(row);
    h.branches.push_back(std::move(lead));
    return h;
}

} // namespace ckpt::test
