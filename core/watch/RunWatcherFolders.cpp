// RunWatcher's handling of the runs found in a walked directory, kept apart from
// RunWatcher.cpp: several runs may share one folder (Layout::runRoots, MindSpore's
// `<prefix>_N` reruns), and the folder's one watch then stands for all of them.
#include "watch/RunWatcher.h"
#include "watch/WatchPaths.h"
#include "watch/WatchSet.h"
#include "watch/WatchTree.h"

#include <algorithm>

namespace ckpt {

bool RunWatcher::sharesFolder(const std::string& root) const
{
    auto it = m_runs.find(root);
    return it != m_runs.end() && !it->second.run.dir.empty();
}

bool RunWatcher::syncFolderRuns(const DirListing& listing)
{
    const std::string dir = listing.dir.string();
    const Layout* layout = WatchTree::layoutOf(listing);
    const auto roots = layout ? layout->runRoots(listing) : std::vector<std::string>{};
    // Runs that shared the folder and are gone: their files deleted, or one run
    // left (then the folder's own).
    for (const auto& root : WatchTree::keysBelow(m_runs, dir)) {
        if (WatchTree::parentOf(root) == dir && sharesFolder(root) &&
            std::find(roots.begin(), roots.end(), root) == roots.end())
            removeRun(root, true);
    }
    if (roots.size() == 1 && roots.front() == dir) {
        addRun(TrackedRun::load(dir, *layout), true);
        return true;
    }
    // A change in the folder may concern any of its runs: each re-reads its own
    // files from one listing (unchanged epochs cost nothing), a new prefix is a new run.
    for (const auto& root : roots) {
        auto it = m_runs.find(root);
        if (it == m_runs.end()) {
            addRun(TrackedRun::load(root, *layout), true);
            continue;
        }
        TrackedRun& t = it->second;
        t.generation = m_generation;
        if (t.layout->refreshInProgress(t.run, listing))
            emit saveInProgress(qpath(root), t.saveInProgress());
        finishEpochChanges(root, t.syncAllEpochs());
    }
    return false;
}

} // namespace ckpt
