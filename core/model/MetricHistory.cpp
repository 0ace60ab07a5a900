#include "model/MetricHistory.h"

#include <algorithm>
#include <map>
#include <set>

namespace ckpt {

std::string_view toString(MetricSource source)
{
    switch (source) {
    case MetricSource::TrainingLog:
        return "training.log";
    case MetricSource::CkptLog:
        return "ckpt.log";
    case MetricSource::HistoryTxt:
        return "history.txt";
    case MetricSource::CkptInfo:
        return "ckpt-info.json";
    }
    return "unknown";
}

namespace {
const MetricSample* richest(const std::vector<MetricSample>& samples, std::string_view metric)
{
    const MetricSample* best = nullptr;
    for (const auto& s : samples)
        if (s.metric == metric && (!best || s.source < best->source))
            best = &s;
    return best;
}
} // namespace

std::optional<double> HistoryRow::value(std::string_view metric) const
{
    if (const auto* s = richest(samples, metric))
        return s->value;
    return std::nullopt;
}

const MetricSample* HistoryRow::sample(std::string_view metric) const
{
    return richest(samples, metric);
}

bool HistoryRow::fillMissing(const HistoryRow& other)
{
    const std::size_t before = samples.size();
    for (const MetricSample& s : other.samples)
        if (!sample(s.metric))
            samples.push_back(s);
    const bool timed = !wallTime && other.wallTime;
    if (timed)
        wallTime = other.wallTime;
    return timed || samples.size() != before;
}

std::optional<MetricSource> HistoryRow::sourceOf(std::string_view metric) const
{
    if (const auto* s = richest(samples, metric))
        return s->source;
    return std::nullopt;
}

std::vector<std::string> MetricHistory::metricNames() const
{
    std::set<std::string> names;
    for (const auto& row : rows)
        for (const auto& s : row.samples)
            names.insert(s.metric);
    return {names.begin(), names.end()};
}

std::vector<const HistoryRow*> MetricHistory::latestPerEpoch() const
{
    std::map<int, const HistoryRow*> latest;
    for (const auto& row : rows) {
        auto& slot = latest[row.epoch];
        if (!slot || row.segment >= slot->segment)
            slot = &row;
    }
    std::vector<const HistoryRow*> out;
    out.reserve(latest.size());
    for (const auto& [epoch, row] : latest)
        out.push_back(row);
    return out;
}

} // namespace ckpt
