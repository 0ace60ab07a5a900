#include "history/HistoryBuilder.h"

#include "history/CkptLogParser.h"
#include "history/EpochHistory.h"
#include "history/HistoryTxtParser.h"
#include "history/TrainingLogParser.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <utility>

namespace ckpt {

namespace {

constexpr int kIncompatible = -1000000;
constexpr std::size_t kScoredSamples = 64; // enough to tell segments apart

int rank(ResumeEvidence e)
{
    switch (e) {
    case ResumeEvidence::Unknown:
        return 0;
    case ResumeEvidence::Guessed:
        return 1;
    case ResumeEvidence::Stated:
        return 2;
    }
    return 0;
}

// ckpt.log prints "%f": six decimals. Allow that much, relative for big values.
bool sameValue(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return std::isnan(a) && std::isnan(b);
    if (std::isinf(a) || std::isinf(b))
        return a == b;
    return std::fabs(a - b) <= 1e-6 * std::max({1.0, std::fabs(a), std::fabs(b)});
}

struct Cell
{
    std::optional<double> wall;
    MetricSource wallSource = MetricSource::CkptInfo;
    std::vector<MetricSample> samples;
};

class Merger
{
public:
    explicit Merger(std::size_t samples) { m_cells.reserve(samples / 2); }

    void addSkeleton(const HistoryFragment& f)
    {
        std::vector<int> ids;
        for (const auto& s : f.segments)
            ids.push_back(newCanon(s, m_order.size()));
        for (const auto& s : f.samples)
            put(ids[static_cast<std::size_t>(s.segment)], s.epoch, s);
    }

    // Places samples in the segment running at their time. False when some
    // segment or sample has no time: then align() must do.
    bool addByTime(const HistoryFragment& f)
    {
        if (m_order.empty())
            return false;
        for (const int id : m_order)
            if (!m_canon[static_cast<std::size_t>(id)].startWall)
                return false;
        for (const auto& s : f.samples)
            if (!s.wallTime)
                return false;
        std::vector<int> firstOf(f.segments.size(), -1);
        for (const auto& s : f.samples) {
            int id = m_order.front();
            for (const int candidate : m_order) {
                // ckpt-info stamps are whole seconds; the log's carry milliseconds.
                // Within one second the time cannot tell processes apart, but a
                // process that resumed at R never wrote an epoch <= R.
                if (std::floor(*m_canon[static_cast<std::size_t>(candidate)].startWall) <=
                        *s.wallTime &&
                    s.epoch > resumeOf(candidate))
                    id = candidate;
            }
            put(id, s.epoch, s);
            auto& first = firstOf[static_cast<std::size_t>(s.segment)];
            if (first < 0)
                first = id;
        }
        for (std::size_t j = 0; j < f.segments.size(); ++j)
            if (firstOf[j] >= 0)
                adopt(firstOf[j], f.segments[j]);
        return true;
    }

    void align(const HistoryFragment& f)
    {
        std::vector<std::vector<const FragmentSample*>> bySegment(f.segments.size());
        for (const auto& s : f.samples)
            bySegment[static_cast<std::size_t>(s.segment)].push_back(&s);
        const bool positional = f.source == MetricSource::HistoryTxt;

        std::size_t limit = m_order.size(); // segments are matched newest first, in order
        for (std::size_t j = f.segments.size(); j-- > 0;) {
            const auto& samples = bySegment[j];
            if (samples.empty())
                continue;
            int bestScore = kIncompatible;
            std::size_t best = limit;
            for (std::size_t k = limit; k-- > 0;) {
                const int id = m_order[k];
                const int shift = positional ? resumeOf(id) : 0;
                const int compatible = compatibility(f.segments[j], id);
                const int agreement = valueScore(samples, id, shift);
                if (compatible == kIncompatible || agreement < 0)
                    continue; // another process: different start or different values
                const int score = compatible + agreement;
                if (score > bestScore) {
                    bestScore = score;
                    best = k;
                }
            }
            int id;
            int shift = 0;
            if (best == limit) {
                id = newCanon(f.segments[j], limit);
            } else {
                id = m_order[best];
                shift = positional ? resumeOf(id) : 0;
                adopt(id, f.segments[j]);
            }
            limit = best;
            for (const auto* s : samples)
                put(id, s->epoch + shift, *s);
        }
    }

    MetricHistory result()
    {
        MetricHistory h;
        std::vector<int> indexOf(m_canon.size(), 0);
        for (std::size_t i = 0; i < m_order.size(); ++i)
            indexOf[static_cast<std::size_t>(m_order[i])] = static_cast<int>(i);
        for (std::size_t i = 0; i < m_order.size(); ++i) {
            const FragmentSegment& c = m_canon[static_cast<std::size_t>(m_order[i])];
            HistorySegment s;
            s.index = static_cast<int>(i);
            if (c.evidence != ResumeEvidence::Unknown)
                s.resumedFrom = c.resumedFrom;
            s.startedAt = c.startedAt;
            h.segments.push_back(std::move(s));
        }
        h.rows.reserve(m_cells.size());
        for (auto& [k, cell] : m_cells) {
            HistoryRow row;
            row.segment = indexOf[static_cast<std::size_t>(k >> 32)];
            row.epoch = static_cast<int>(static_cast<std::uint32_t>(k));
            row.wallTime = cell.wall;
            // (metric, source) is unique within a cell: a plain sort is deterministic.
            std::sort(cell.samples.begin(), cell.samples.end(),
                      [](const MetricSample& a, const MetricSample& b) {
                          return a.metric != b.metric ? a.metric < b.metric : a.source < b.source;
                      });
            row.samples = std::move(cell.samples);
            // The cell reserved room for 8 samples; a history of 100,000
            // epochs keeps only what it holds (the window keeps every run's).
            row.samples.shrink_to_fit();
            h.rows.push_back(std::move(row));
        }
        std::sort(h.rows.begin(), h.rows.end(), [](const HistoryRow& a, const HistoryRow& b) {
            return std::pair(a.segment, a.epoch) < std::pair(b.segment, b.epoch);
        });
        for (const auto& row : h.rows) {
            auto& s = h.segments[static_cast<std::size_t>(row.segment)];
            if (!s.firstEpoch)
                s.firstEpoch = row.epoch;
            s.lastEpoch = row.epoch;
        }
        // A later process always resumed from somewhere; say where, when no
        // source wrote it down, from its first epoch.
        for (std::size_t i = 1; i < h.segments.size(); ++i) {
            auto& s = h.segments[i];
            const auto& c = m_canon[static_cast<std::size_t>(m_order[i])];
            if (c.evidence == ResumeEvidence::Unknown && s.firstEpoch && *s.firstEpoch > 1)
                s.resumedFrom = *s.firstEpoch - 1;
        }
        return h;
    }

private:
    static std::uint64_t key(int id, int epoch)
    {
        return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(id)) << 32) |
               static_cast<std::uint32_t>(epoch);
    }

    int newCanon(const FragmentSegment& s, std::size_t at)
    {
        const int id = static_cast<int>(m_canon.size());
        m_canon.push_back(s);
        m_order.insert(m_order.begin() + static_cast<std::ptrdiff_t>(at), id);
        return id;
    }

    int resumeOf(int id) const
    {
        return m_canon[static_cast<std::size_t>(id)].resumedFrom.value_or(0);
    }

    // Takes what `s` knows better than the segment so far.
    void adopt(int id, const FragmentSegment& s)
    {
        FragmentSegment& c = m_canon[static_cast<std::size_t>(id)];
        if (rank(s.evidence) > rank(c.evidence)) {
            c.resumedFrom = s.resumedFrom;
            c.evidence = s.evidence;
        }
        if (c.startedAt.empty() && !s.startedAt.empty()) {
            c.startedAt = s.startedAt;
            c.startWall = s.startWall;
        }
    }

    int compatibility(const FragmentSegment& s, int id) const
    {
        const FragmentSegment& c = m_canon[static_cast<std::size_t>(id)];
        if (s.evidence == ResumeEvidence::Unknown || c.evidence == ResumeEvidence::Unknown)
            return 0;
        const bool stated =
            s.evidence == ResumeEvidence::Stated && c.evidence == ResumeEvidence::Stated;
        if (s.resumedFrom.value_or(0) == c.resumedFrom.value_or(0))
            return stated ? 2 : 1;
        return stated ? kIncompatible : -1;
    }

    int valueScore(const std::vector<const FragmentSample*>& samples, int id, int shift) const
    {
        int score = 0;
        const std::size_t n = std::min(samples.size(), kScoredSamples);
        for (std::size_t i = 0; i < n; ++i) {
            const auto it = m_cells.find(key(id, samples[i]->epoch + shift));
            if (it == m_cells.end())
                continue;
            for (const auto& known : it->second.samples) {
                if (known.metric != samples[i]->sample.metric)
                    continue;
                score += sameValue(known.value, samples[i]->sample.value) ? 1 : -3;
                break;
            }
        }
        return score;
    }

    void put(int id, int epoch, const FragmentSample& s)
    {
        Cell& cell = m_cells[key(id, epoch)];
        if (cell.samples.empty())
            cell.samples.reserve(8);
        if (s.wallTime && (!cell.wall || s.sample.source < cell.wallSource)) {
            cell.wall = s.wallTime;
            cell.wallSource = s.sample.source;
        }
        for (auto& known : cell.samples) {
            if (known.metric == s.sample.metric && known.source == s.sample.source) {
                known = s.sample; // the later line of the same source wins
                return;
            }
        }
        cell.samples.push_back(s.sample);
    }

    std::vector<FragmentSegment> m_canon;            // by id
    std::vector<int> m_order;                        // ids in time order
    std::unordered_map<std::uint64_t, Cell> m_cells; // by key(id, epoch)
};

const HistoryFragment* find(const std::vector<HistoryFragment>& fragments, MetricSource source)
{
    for (const auto& f : fragments)
        if (f.source == source)
            return &f;
    return nullptr;
}

} // namespace

MetricHistory HistoryBuilder::merge(std::vector<HistoryFragment> fragments)
{
    const HistoryFragment* skeleton = nullptr;
    if (const auto* log = find(fragments, MetricSource::CkptLog); log && !log->segments.empty())
        skeleton = log;
    for (const auto source :
         {MetricSource::CkptInfo, MetricSource::TrainingLog, MetricSource::HistoryTxt}) {
        if (skeleton)
            break;
        if (const auto* f = find(fragments, source); f && !f->samples.empty())
            skeleton = f;
    }

    std::size_t samples = 0;
    for (const auto& f : fragments)
        samples += f.samples.size();
    Merger merger(samples);
    if (skeleton)
        merger.addSkeleton(*skeleton);
    for (const auto source :
         {MetricSource::CkptInfo, MetricSource::TrainingLog, MetricSource::HistoryTxt}) {
        for (const auto& f : fragments) {
            if (f.source != source || &f == skeleton || f.samples.empty())
                continue;
            if (source != MetricSource::CkptInfo || !merger.addByTime(f))
                merger.align(f);
        }
    }

    MetricHistory history = merger.result();
    for (auto& f : fragments)
        for (auto& p : f.problems)
            history.problems.push_back(std::move(p));
    return history;
}

} // namespace ckpt
