#include "history/EpochHistory.h"

#include "history/LocalTime.h"

#include <algorithm>

namespace ckpt {

HistoryFragment EpochHistory::fromEpochs(const std::vector<Epoch>& epochs, std::string_view root)
{
    HistoryFragment out;
    out.source = MetricSource::CkptInfo;
    out.path = std::string(root);

    struct Entry
    {
        const Epoch* epoch;
        std::optional<double> wall;
    };
    std::vector<Entry> entries;
    bool allTimed = true;
    for (const auto& e : epochs) {
        if (!e.hasRecord())
            continue;
        Entry entry{&e, std::nullopt};
        if (!e.savedAt.empty())
            entry.wall = LocalTime::parse(e.savedAt);
        allTimed = allTimed && entry.wall.has_value();
        entries.push_back(entry);
    }
    // Time order keeps a rolled-back process apart from the epochs it did not
    // overwrite; without every timestamp, numbers are the best order there is.
    std::stable_sort(entries.begin(), entries.end(), [&](const Entry& a, const Entry& b) {
        if (allTimed && *a.wall != *b.wall)
            return *a.wall < *b.wall;
        return a.epoch->number < b.epoch->number;
    });

    for (const auto& entry : entries) {
        const Epoch& e = *entry.epoch;
        if (out.segments.empty() || e.firstSave) {
            FragmentSegment segment;
            if (e.firstSave) {
                if (e.number > 1)
                    segment.resumedFrom = e.number - 1;
                segment.evidence = ResumeEvidence::Guessed;
            }
            segment.startedAt = e.savedAt;
            segment.startWall = entry.wall;
            out.segments.push_back(std::move(segment));
        }
        const int segment = static_cast<int>(out.segments.size()) - 1;
        auto add = [&](std::string_view metric, double value) {
            out.samples.push_back(
                FragmentSample{segment, e.number, entry.wall,
                               MetricSample{std::string(metric), value, MetricSource::CkptInfo}});
        };
        for (const auto& m : e.metrics)
            add(m.name, m.value);
        if (e.elapsed)
            add("time_elapsed", *e.elapsed);
        if (const auto bytes = e.modelBytes())
            add("model_mb", static_cast<double>(*bytes) / (1024.0 * 1024.0));
    }
    return out;
}

} // namespace ckpt
