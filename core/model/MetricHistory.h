#pragma once

#include "model/Problem.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// Where a metric value was read from, richest source first.
enum class MetricSource
{
    TrainingLog,
    CkptLog,
    HistoryTxt,
    CkptInfo
};
std::string_view toString(MetricSource source);

struct MetricSample
{
    std::string metric; // "loss", "val_loss", ... ; from ckpt-info: "best_so_far", "time_elapsed",
                        // "model_mb"
    double value = 0.0; // may be NaN or +/-inf (as written)
    MetricSource source = MetricSource::CkptInfo;
};

// One training process of a run. CANDLE restarts appear as a new segment that
// resumed at `resumedFrom` (the epoch `last` pointed at), not as a zig-zag.
struct HistorySegment
{
    int index = 0;
    std::optional<int> resumedFrom; // epoch the process restarted from; none for the first
    std::optional<int> firstEpoch;
    std::optional<int> lastEpoch;
    std::string startedAt; // timestamp text as written, when known
};

// Everything known about one epoch of one segment.
struct HistoryRow
{
    int epoch = 0; // 1-based, matching epochs/NNN
    int segment = 0;
    std::optional<double>
        wallTime; // seconds since the Unix epoch, local-time timestamps read as local
    std::vector<MetricSample> samples;

    // The value of `metric` from the richest source that has it.
    std::optional<double> value(std::string_view metric) const;
    std::optional<MetricSource> sourceOf(std::string_view metric) const;
};

struct MetricHistory
{
    std::vector<HistorySegment> segments;
    std::vector<HistoryRow> rows; // sorted by (segment, epoch)
    Problems problems;            // unparseable lines, files that could not be read

    std::vector<std::string> metricNames() const; // sorted, unique
    // The latest row for each epoch (a restart's rows replace the ones it overwrote).
    std::vector<const HistoryRow*> latestPerEpoch() const;
};

} // namespace ckpt
