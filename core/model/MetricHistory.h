#pragma once

#include "model/Problem.h"

#include <optional>
#include <set>
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
    // Both at once: the sample of `metric` from the richest source, or null.
    const MetricSample* sample(std::string_view metric) const;
    // Adds the samples of `other` (the same epoch as logged elsewhere) whose
    // metric this row lacks, and its wall time when this row has none; never
    // replaces a value. True when anything was added.
    bool fillMissing(const HistoryRow& other);
};

// History drawn with a run that is not the run's own current training: the
// epochs a restart moved aside (RUN/.ckpt-studio/superseded/<time>/, read from
// the logs kept there) or, for a fork, its parent's epochs up to the fork point.
// Filled by RunBranches (core/launch); the history sources never produce it.
struct HistoryBranch
{
    enum class Kind
    {
        Superseded, // epochs > `epoch` that a restart from `epoch` replaced
        ForkLeadIn  // the parent's epochs <= `epoch` that a fork continued from
    };
    Kind kind = Kind::Superseded;
    int epoch = 0;      // the restart or fork epoch: where the branch meets the run
    std::string time;   // when the restart or fork was made, "yyyy-MM-dd HH:mm" local
    std::string origin; // the superseded folder, or the parent's run root
    std::string name;   // a fork's parent, as shown ("RUN001"); empty otherwise
    // One per epoch, ascending, the epoch itself included. Superseded: the whole
    // history kept with the folder (epochs <= `epoch` are what the run had then).
    std::vector<HistoryRow> rows;
};

struct MetricHistory
{
    std::vector<HistorySegment> segments;
    std::vector<HistoryRow> rows;        // sorted by (segment, epoch)
    Problems problems;                   // unparseable lines, files that could not be read
    std::vector<HistoryBranch> branches; // superseded branches (oldest first), a fork's lead-in
    // The epochs a restart's folder kept that the run's own logs lost are put
    // back into `rows` (restoredFromBranches() made it).
    bool restored = false;

    std::vector<std::string> metricNames() const; // sorted, unique
    // Adds them to `names` (a row naming the same metrics as the one before costs
    // no lookup: a million rows take milliseconds).
    void collectMetricNames(std::set<std::string>& names) const;
    // The latest row for each epoch (a restart's rows replace the ones it overwrote).
    std::vector<const HistoryRow*> latestPerEpoch() const;
    // Whether there are superseded branches (then restoredFromBranches() may add epochs).
    bool hasSuperseded() const;
    // This history with the run's own epochs up to each restart that its logs no
    // longer hold but the superseded folder's logs do (a restarted trainer that
    // overwrote training.log): their values put back into the segment that
    // trained them (the newest before the restart that had not resumed past
    // the epoch). Samples a row has are never replaced.
    MetricHistory restoredFromBranches() const;
};

} // namespace ckpt
