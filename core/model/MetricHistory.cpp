#include "model/MetricHistory.h"

#include <algorithm>
#include <functional>
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

void MetricHistory::collectMetricNames(std::set<std::string>& names) const
{
    const HistoryRow* previous = nullptr;
    for (const auto& row : rows) {
        // Rows mostly name the same metrics as the one before: no lookups then.
        const bool same = previous && std::equal(row.samples.begin(), row.samples.end(),
                                                 previous->samples.begin(), previous->samples.end(),
                                                 [](const auto& a, const auto& b) {
                                                     return a.metric == b.metric;
                                                 });
        if (!same)
            for (const auto& s : row.samples)
                names.insert(s.metric);
        previous = &row;
    }
}

std::vector<std::string> MetricHistory::metricNames() const
{
    std::set<std::string> names;
    collectMetricNames(names);
    return {names.begin(), names.end()};
}

bool MetricHistory::hasSuperseded() const
{
    return std::any_of(branches.begin(), branches.end(),
                       [](const auto& b) { return b.kind == HistoryBranch::Kind::Superseded; });
}

MetricHistory MetricHistory::restoredFromBranches() const
{
    MetricHistory out = *this;
    out.restored = true;
    std::vector<bool> matched(out.segments.size(), false);
    bool added = false;
    for (const HistoryBranch& branch : branches) {
        if (branch.kind != HistoryBranch::Kind::Superseded)
            continue;
        // The restart that made this folder: the next segment resumed from its epoch.
        std::size_t r = 1;
        while (r < out.segments.size() &&
               (matched[r] || out.segments[r].resumedFrom != branch.epoch))
            ++r;
        if (r >= out.segments.size())
            continue;
        matched[r] = true;
        for (const HistoryRow& old : branch.rows) {
            if (old.epoch > branch.epoch)
                break;
            // The segment that trained it on the way to the restart.
            std::size_t s = r - 1;
            while (s > 0 && old.epoch <= out.segments[s].resumedFrom.value_or(0))
                --s;
            const int segment = out.segments[s].index;
            const auto row = std::find_if(out.rows.begin(), out.rows.end(), [&](const auto& x) {
                return x.segment == segment && x.epoch == old.epoch;
            });
            if (row != out.rows.end()) {
                added = row->fillMissing(old) || added;
            } else {
                HistoryRow fresh = old;
                fresh.segment = segment;
                out.rows.push_back(std::move(fresh));
                added = true;
            }
        }
    }
    if (added)
        std::sort(out.rows.begin(), out.rows.end(), [](const HistoryRow& a, const HistoryRow& b) {
            return std::pair(a.segment, a.epoch) < std::pair(b.segment, b.epoch);
        });
    return out;
}

std::vector<const HistoryRow*> MetricHistory::latestPerEpoch() const
{
    std::vector<const HistoryRow*> out;
    out.reserve(rows.size());
    for (const auto& row : rows)
        out.push_back(&row);
    // One segment (most runs): the rows are already one per epoch, in order.
    const auto ascending = [](const HistoryRow* a, const HistoryRow* b) {
        return a->epoch < b->epoch;
    };
    if (std::adjacent_find(out.begin(), out.end(), [](const HistoryRow* a, const HistoryRow* b) {
            return a->epoch >= b->epoch;
        }) == out.end())
        return out;
    // By epoch, then the newest segment and, within one, the row read last
    // first (rows is one vector: its order is the addresses'); the first stays.
    std::sort(out.begin(), out.end(), [](const HistoryRow* a, const HistoryRow* b) {
        if (a->epoch != b->epoch)
            return a->epoch < b->epoch;
        if (a->segment != b->segment)
            return a->segment > b->segment;
        return std::greater<const HistoryRow*>()(a, b);
    });
    out.erase(std::unique(out.begin(), out.end(),
                          [&](const HistoryRow* a, const HistoryRow* b) {
                              return !ascending(a, b) && !ascending(b, a);
                          }),
              out.end());
    return out;
}

} // namespace ckpt
