#include "launch/RunBranches.h"

#include "launch/LaunchPrep.h"
#include "layout/Layout.h"

#include <QDateTime>
#include <QString>

#include <algorithm>
#include <limits>
#include <map>
#include <mutex>
#include <sys/stat.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

const QString kShownTime = QStringLiteral("yyyy-MM-dd HH:mm");

// A superseded folder is named by the local time it was made: yyyyMMdd-HHmmss[-N].
QDateTime folderTime(const fs::path& folder)
{
    const QString name = QString::fromStdString(folder.filename().string()).left(15);
    return QDateTime::fromString(name, QStringLiteral("yyyyMMdd-HHmmss"));
}

QDateTime isoTime(const std::string& iso)
{
    return QDateTime::fromString(QString::fromStdString(iso), Qt::ISODate);
}

std::string shown(const QDateTime& t)
{
    return t.isValid() ? t.toLocalTime().toString(kShownTime).toStdString() : std::string();
}

// The rows of `history` from `from` to `to` (inclusive), the newest segment's per epoch.
std::vector<HistoryRow> rowsBetween(const MetricHistory& history, int from, int to)
{
    std::vector<HistoryRow> out;
    for (const HistoryRow* row : history.latestPerEpoch())
        if (row->epoch >= from && row->epoch <= to)
            out.push_back(*row);
    return out;
}

// The history of a run folder, or of a superseded copy of one, read by the
// run's own layout.
MetricHistory historyAt(const fs::path& dir, const Layout& layout)
{
    return layout.history(layout.loadRun(dir));
}

// What a superseded folder holds, read once: nothing writes there after the
// restart that made it, and a live run's history is rebuilt at every epoch.
struct Kept
{
    std::optional<int> firstEpoch; // the first epoch moved aside
    std::vector<HistoryRow> rows;
};

// Changes whenever anything the folder's history is read from changes: the
// folder and what it holds directly (the epochs' folder, the logs kept beside
// it, or the epochs themselves), whatever the layout names them.
std::string stampOf(const fs::path& folder)
{
    std::string stamp;
    const auto add = [&stamp](const fs::path& path) {
        struct stat st
        {};
        if (::lstat(path.c_str(), &st) == 0)
            stamp += std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
                     std::to_string(st.st_mtim.tv_sec) + "." + std::to_string(st.st_mtim.tv_nsec) +
                     ";";
        else
            stamp += "-;";
    };
    add(folder);
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        add(entry.path());
    return stamp;
}

Kept keptIn(const fs::path& folder, const Layout& layout)
{
    static std::mutex mutex;
    static std::map<std::string, std::pair<std::string, Kept>> cache; // folder -> stamp, kept
    const std::string stamp = stampOf(folder);
    {
        const std::lock_guard lock(mutex);
        if (auto it = cache.find(folder.string()); it != cache.end() && it->second.first == stamp)
            return it->second.second;
    }
    const Run old = layout.loadRun(folder);
    Kept kept;
    if (!old.epochs.empty())
        kept.firstEpoch = old.epochs.front().number;
    kept.rows = rowsBetween(layout.history(old), 1, std::numeric_limits<int>::max());
    const std::lock_guard lock(mutex);
    cache[folder.string()] = {stamp, kept};
    return kept;
}

} // namespace

std::vector<fs::path> RunBranches::supersededFolders(const fs::path& root)
{
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(root / ".ckpt-studio" / "superseded", ec))
        if (entry.is_directory(ec) && folderTime(entry.path()).isValid())
            out.push_back(entry.path());
    std::sort(out.begin(), out.end()); // the names sort by time
    return out;
}

namespace {

// The restarts of `root` recorded in its launch record, oldest first.
std::vector<const LaunchAttempt*> restartsOf(const LaunchRecord& record, const fs::path& root)
{
    std::vector<const LaunchAttempt*> out;
    for (const LaunchAttempt& a : record.attempts)
        if (a.plan.mode == LaunchPlan::Mode::Restart && a.plan.parent &&
            fs::path(a.plan.parent->runRoot).lexically_normal() == root.lexically_normal())
            out.push_back(&a);
    return out;
}

} // namespace

MetricHistory RunBranches::completeHistory(const Run& run)
{
    MetricHistory history = historyOf(run);
    history.branches = of(run.root, history);
    if (history.hasSuperseded())
        history = history.restoredFromBranches();
    // A fork's epochs up to its fork epoch (the one it starts from) hold what
    // its parent logged then; the fork's own logs start after it.
    for (const HistoryBranch& lead : history.branches) {
        if (lead.kind != HistoryBranch::Kind::ForkLeadIn)
            continue;
        for (HistoryRow& row : history.rows) {
            if (row.epoch > lead.epoch)
                continue;
            // A branch's rows are one per epoch, ascending.
            const auto parent =
                std::lower_bound(lead.rows.begin(), lead.rows.end(), row.epoch,
                                 [](const HistoryRow& r, int epoch) { return r.epoch < epoch; });
            if (parent != lead.rows.end() && parent->epoch == row.epoch)
                row.fillMissing(*parent);
        }
    }
    return history;
}

std::string RunBranches::displayName(const fs::path& root)
{
    return LaunchPrep::runFolderOf(root).filename().string();
}

std::optional<RunBranches::ForkOrigin> RunBranches::forkOrigin(const fs::path& root)
{
    auto record = LaunchRecord::load(LaunchRecord::pathFor(root));
    if (!record)
        return std::nullopt;
    for (const LaunchAttempt& a : record->attempts)
        if (a.plan.mode == LaunchPlan::Mode::Fork && a.plan.parent)
            return ForkOrigin{a.plan.parent->runRoot, a.plan.parent->epoch, a.submitted,
                              a.plan.parent->supersededBefore};
    return std::nullopt;
}

std::vector<HistoryBranch> RunBranches::superseded(const fs::path& root, std::size_t before)
{
    std::vector<HistoryBranch> out;
    const auto folders = supersededFolders(root);
    const Layout* layout = folders.empty() ? nullptr : layoutAt(root);
    if (!layout)
        return out;
    auto record = LaunchRecord::load(LaunchRecord::pathFor(root));
    const auto restarts = record ? restartsOf(*record, root) : std::vector<const LaunchAttempt*>{};
    std::size_t next = 0; // restarts are matched to folders in time order
    for (std::size_t i = 0; i < std::min(folders.size(), before); ++i) {
        const fs::path& folder = folders[i];
        const QDateTime made = folderTime(folder);
        Kept kept = keptIn(folder, *layout);
        HistoryBranch branch;
        branch.kind = HistoryBranch::Kind::Superseded;
        branch.origin = folder.string();
        branch.time = shown(made);
        // The restart that made the folder counted the folders before it (the
        // last so counted: one that moved nothing made none) ...
        const LaunchAttempt* madeBy = nullptr;
        for (const LaunchAttempt* r : restarts)
            if (r->plan.parent->supersededBefore == int(i))
                madeBy = r;
        // ... or, in older records, the first restart submitted since the
        // folder was made (when the restart was prepared, to the second).
        if (!madeBy) {
            while (next < restarts.size() &&
                   (restarts[next]->plan.parent->supersededBefore ||
                    isoTime(restarts[next]->submitted) < made.addSecs(-1)))
                ++next;
            if (next < restarts.size())
                madeBy = restarts[next++];
        }
        if (madeBy) {
            branch.epoch = madeBy->plan.parent->epoch;
            if (const QDateTime t = isoTime(madeBy->submitted); t.isValid())
                branch.time = shown(t);
        } else if (kept.firstEpoch) {
            branch.epoch = *kept.firstEpoch - 1;
        } else {
            continue; // nothing tells where it left the run
        }
        // All of it: the epochs up to the restart fill in what the run's own
        // logs lost since (a restarted trainer often overwrites training.log).
        branch.rows = std::move(kept.rows);
        if (std::any_of(branch.rows.begin(), branch.rows.end(),
                        [&](const HistoryRow& r) { return r.epoch > branch.epoch; }))
            out.push_back(std::move(branch));
    }
    return out;
}

std::optional<HistoryBranch> RunBranches::forkLeadIn(const fs::path& root, const MetricHistory& own)
{
    const auto origin = forkOrigin(root);
    if (!origin || origin->epoch < 1)
        return std::nullopt;
    HistoryBranch lead;
    lead.kind = HistoryBranch::Kind::ForkLeadIn;
    lead.epoch = origin->epoch;
    lead.origin = origin->parentRoot;
    lead.name = displayName(origin->parentRoot);
    const QDateTime forked = isoTime(origin->submitted);
    lead.time = shown(forked);

    // The parent may have been restarted from an earlier epoch since: then
    // what the fork continued lies in the folder that restart made.
    std::error_code ec;
    const fs::path parent(origin->parentRoot);
    const Layout* layout = fs::is_directory(parent, ec) ? layoutAt(parent) : nullptr;
    if (layout) {
        // The first folder made after the fork keeps the parent as the fork
        // saw it; none: the parent as it is now.
        const auto folders = supersededFolders(parent);
        std::size_t asItWas = folders.size();
        if (origin->supersededBefore) {
            if (*origin->supersededBefore >= 0)
                asItWas = std::min(folders.size(), std::size_t(*origin->supersededBefore));
        } else {
            // Older records: by time, to the second the folders are named with.
            for (std::size_t i = 0; i < folders.size() && asItWas == folders.size(); ++i)
                if (forked.isValid() && folderTime(folders[i]) >= forked.addSecs(-1))
                    asItWas = i;
        }
        MetricHistory history =
            historyAt(asItWas < folders.size() ? folders[asItWas] : parent, *layout);
        // A restart of the parent before then may have rewritten its log;
        // what that lost is in the folders made before (only those are read).
        history.branches = superseded(parent, asItWas);
        if (history.hasSuperseded())
            history = history.restoredFromBranches();
        lead.rows = rowsBetween(history, 1, origin->epoch);
    }
    if (lead.rows.empty() || lead.rows.back().epoch != origin->epoch)
        lead.rows = rowsBetween(own, 1, origin->epoch); // the fork's copy of its parent's log
    if (lead.rows.empty())
        return std::nullopt;
    return lead;
}

std::vector<HistoryBranch> RunBranches::of(const fs::path& root, const MetricHistory& history)
{
    auto out = superseded(root);
    if (auto lead = forkLeadIn(root, history))
        out.push_back(std::move(*lead));
    return out;
}

} // namespace ckpt
