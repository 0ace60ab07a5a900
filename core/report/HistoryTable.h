#pragma once

#include "model/MetricHistory.h"

#include <string>
#include <vector>

namespace ckpt {

// The `ckpt history` output of a MetricHistory, in three forms. Columns are the
// history's metric names, sorted; a value is the one from the richest source.
//
// CSV:  epoch,segment,wall_time,<metrics...>; empty cell = no value; non-finite
//       values as nan/inf/-inf; wall_time in seconds since the Unix epoch.
// JSON: {"metrics": [...], "segments": [{"index", "resumed_from", "first_epoch",
//       "last_epoch", "started_at"}], "rows": [{"epoch", "segment", "wall_time",
//       "values": {...}, "sources": {...}}]}; non-finite values and unknowns null.
// Text: an aligned table for people, local wall time, 6 significant digits.
class HistoryTable
{
public:
    enum class Rows
    {
        LatestPerEpoch, // one row per epoch: the last segment that reached it
        AllSegments,    // every (segment, epoch), superseded rows included
    };

    static std::vector<const HistoryRow*> select(const MetricHistory& history, Rows rows);

    static std::string toCsv(const MetricHistory& history, Rows rows = Rows::LatestPerEpoch);
    static std::string toJson(const MetricHistory& history, Rows rows = Rows::LatestPerEpoch);
    static std::string toText(const MetricHistory& history, Rows rows = Rows::LatestPerEpoch);
};

} // namespace ckpt
