#include "layout/Layout.h"

#include "history/EpochHistory.h"
#include "history/HistoryBuilder.h"
#include "layout/AbsolutePath.h"
#include "layout/DirReader.h"

#include <algorithm>

namespace ckpt {

const DirEntry* DirListing::find(std::string_view name) const
{
    for (const auto& entry : entries)
        if (entry.name == name)
            return &entry;
    return nullptr;
}

std::vector<std::string> Layout::runRoots(const DirListing& listing) const
{
    return {listing.dir.string()};
}

bool Layout::refreshInProgress(Run&, const DirListing&) const
{
    return false;
}

bool Layout::replaceInProgress(Run& run, Run now)
{
    const auto samePaths = [](const Run& a, const Run& b) {
        return std::equal(
            a.inProgress.begin(), a.inProgress.end(), b.inProgress.begin(), b.inProgress.end(),
            [](const InProgressItem& x, const InProgressItem& y) { return x.path == y.path; });
    };
    if (samePaths(now, run))
        return false;
    std::erase_if(run.problems,
                  [](const Problem& p) { return p.kind == ProblemKind::InterruptedSave; });
    run.inProgress = std::move(now.inProgress);
    run.problems.insert(run.problems.end(), now.problems.begin(), now.problems.end());
    return true;
}

Run Layout::reloadRun(const Run& before) const
{
    return loadRun(before.root);
}

void Layout::carryOver(const Epoch&, Epoch&) const {}

MetricHistory Layout::history(const Run& run) const
{
    std::vector<HistoryFragment> fragments;
    fragments.push_back(EpochHistory::fromEpochs(run.epochs, run.root));
    return HistoryBuilder::merge(std::move(fragments));
}

std::vector<std::string> Layout::sourceCandidates(const Run& run) const
{
    std::vector<std::string> out;
    for (const RunSource& s : run.sources)
        if (!s.path.empty())
            out.push_back(s.path);
    return out;
}

void Layout::reloadSources(Run& run) const
{
    run.sources = loadRun(run.root).sources;
}

std::filesystem::path Layout::auditLogPath(const std::filesystem::path& root) const
{
    // Inside our own folder: a format without a log of its own gets none from us.
    return root / ".ckpt-studio" / "audit.log";
}

const std::vector<const Layout*>& builtinLayouts()
{
    // CANDLE first: when two layouts claim a directory, the first wins. Layouts
    // known by file names come after those with a record of their own, the
    // Keras/Synalinks templates next, and Caffe2's generic `<node>.<epoch>` last.
    static const std::vector<const Layout*> all{
        &layouts::candle(), &layouts::orbax(),     &layouts::mindspore(), &layouts::lightning(),
        &layouts::keras(),  &layouts::synalinks(), &layouts::caffe2()};
    return all;
}

const Layout* findLayout(std::string_view name)
{
    for (const Layout* layout : builtinLayouts())
        if (layout->name() == name)
            return layout;
    return nullptr;
}

const Layout* layoutOf(const Run& run)
{
    return findLayout(run.layout);
}

MetricHistory historyOf(const Run& run)
{
    const Layout* layout = layoutOf(run);
    return layout ? layout->history(run) : MetricHistory{};
}

std::optional<DirListing> Layout::beginRun(Run& run, const std::filesystem::path& root) const
{
    run.root = AbsolutePath::normal(root);
    run.layout = std::string(name());
    auto listing = DirReader::list(std::filesystem::path(run.root));
    if (!listing) {
        run.problems.push_back(Problem{ProblemKind::Unreadable,
                                       "cannot list " + listing.error().message +
                                           ": check the permissions of the run folder.",
                                       run.root, std::nullopt});
        return std::nullopt;
    }
    return std::move(*listing);
}

const Layout* layoutAt(const std::filesystem::path& root)
{
    auto listing = DirReader::list(root);
    if (listing) {
        for (const Layout* layout : builtinLayouts())
            if (layout->isRunRoot(*listing))
                return layout;
        return nullptr;
    }
    // Not a directory: one of several runs sharing the parent folder?
    const std::string path = AbsolutePath::normal(root);
    auto parent = DirReader::list(std::filesystem::path(path).parent_path());
    if (!parent || parent->find(std::filesystem::path(path).filename().string()))
        return nullptr;
    for (const Layout* layout : builtinLayouts()) {
        if (!layout->isRunRoot(*parent))
            continue;
        const auto roots = layout->runRoots(*parent);
        return std::find(roots.begin(), roots.end(), path) != roots.end() ? layout : nullptr;
    }
    return nullptr;
}

} // namespace ckpt
