// RunWatcher's set of runs: adopting what a walk found, adding and removing
// runs (their watches and announcements), and the periodic safety rescan
// (computed off the GUI thread, applied on it). Kept apart from RunWatcher.cpp,
// which follows changes inside the runs it has.
#include "layout/AbsolutePath.h"
#include "watch/RunWatcher.h"
#include "watch/WatchPaths.h"
#include "watch/WatchSet.h"
#include "watch/WatchTree.h"

#include <QtConcurrent>

#include <algorithm>

namespace ckpt {

void RunWatcher::adoptWalk(const std::string& dir, const std::vector<Run>& known)
{
    const WatchTree::Outcome found = WatchTree::walk(dir, m_options.maxDepth);
    for (const std::string& d : found.dirs) {
        if (m_dirs.insert(d).second)
            m_watches->add(d, d);
    }
    for (const auto& r : found.runs) {
        if (m_runs.count(r.root))
            continue;
        auto k = std::find_if(known.begin(), known.end(), [&](const Run& run) {
            return AbsolutePath::normal(run.root) == r.root;
        });
        if (k != known.end()) {
            addRun(TrackedRun::adopt(*k, *r.layout), false);
            // Epochs saved between the caller's load and now are news.
            finishEpochChanges(r.root, m_runs.at(r.root).syncAllEpochs());
        } else
            addRun(TrackedRun::load(r.root, *r.layout), true);
    }
}

void RunWatcher::addRun(TrackedRun tracked, bool announce)
{
    const std::string root = AbsolutePath::normal(tracked.run.root);
    tracked.generation = m_generation;
    // Walked before it became a run: epochs/ and work/ were plain directories then.
    if (m_dirs.erase(root))
        m_watches->remove(root);
    for (const auto& below : WatchTree::keysBelow(m_dirs, root)) {
        const std::string rel = below.substr(root.size() + 1);
        if (tracked.layout->ownsSubdirectory(rel.substr(0, rel.find('/')))) {
            m_dirs.erase(below);
            m_watches->remove(below);
        }
    }
    auto [it, inserted] = m_runs.insert_or_assign(root, std::move(tracked));
    TrackedRun& t = it->second;
    if (t.run.dir.empty()) // runs sharing a folder: its watch as a walked directory
        m_watches->add(root, root);
    if (!t.epochsAtRoot()) {
        m_watches->add(t.epochsPath(), t.epochsPath(), true);
        m_epochsDirs[t.epochsPath()] = root;
    }
    if (m_options.polling) {
        // Relinking shows in the root's mtime too, but coarse network-fs times may hide it.
        for (std::string_view link : t.layout->linkNames())
            m_watches->add(root + "/" + std::string(link), root);
    }
    const EpochList& epochs = t.run.epochs; // read only: shared with the caller's copy
    for (const Epoch& e : epochs)
        watchEpochIfIncomplete(root, e);
    for (auto e = epochs.rbegin(); e != epochs.rend(); ++e)
        watchEpochContents(root, *e);
    // An adopted run's state is the caller's already; an announced one goes with runAdded.
    m_heads[root] = RunDiff::headOf(t.run);
    if (announce)
        emit runAdded(t.run);
    if (announce && t.saveInProgress())
        emit saveInProgress(qpath(root), true);
}

void RunWatcher::removeRun(const std::string& root, bool announce)
{
    auto it = m_runs.find(root);
    if (it == m_runs.end())
        return;
    const std::string epochs = it->second.epochsAtRoot() ? root : it->second.epochsPath();
    const auto links = it->second.layout->linkNames();
    m_runs.erase(it);
    m_heads.erase(root);
    unwatchEpochContents(root, std::nullopt);
    m_contentCount.erase(root);
    m_watches->remove(root);
    if (epochs != root)
        m_watches->remove(epochs);
    for (std::string_view link : links)
        m_watches->remove(root + "/" + std::string(link));
    m_epochsDirs.erase(epochs);
    m_epochNames.erase(epochs);
    m_fullEpochs.erase(epochs);
    for (auto p = m_pending.begin(); p != m_pending.end();) {
        if (p->second.first == root) {
            m_watches->remove(p->first);
            p = m_pending.erase(p);
        } else {
            ++p;
        }
    }
    if (announce)
        emit runRemoved(qpath(root));
}

void RunWatcher::removeSubtree(const std::string& dir)
{
    if (m_runs.count(dir))
        removeRun(dir, true);
    for (const auto& root : WatchTree::keysBelow(m_runs, dir))
        removeRun(root, true);
    // A dropped folder that vanished stays on the list so that it is picked up
    // again by the safety rescan if it comes back.
    for (const auto& d : WatchTree::keysBelow(m_dirs, dir)) {
        m_dirs.erase(d);
        m_watches->remove(d);
    }
    if (std::find(m_folders.begin(), m_folders.end(), dir) == m_folders.end() ||
        !DirSnapshot::isDirectory(dir)) {
        if (m_dirs.erase(dir))
            m_watches->remove(dir);
    }
}

void RunWatcher::rescanNow()
{
    applyRescan(computeRescan(m_folders, m_options.maxDepth, m_generation));
}

void RunWatcher::startPeriodicRescan()
{
    if (m_rescan.isRunning() || m_folders.empty())
        return;
    m_rescan.setFuture(
        QtConcurrent::run(&RunWatcher::computeRescan, m_folders, m_options.maxDepth, m_generation));
}

RunWatcher::RescanResult RunWatcher::computeRescan(std::vector<std::string> folders, int maxDepth,
                                                   std::uint64_t generation)
{
    RescanResult result;
    result.generation = generation;
    for (const std::string& folder : folders) {
        WatchTree::Outcome found = WatchTree::walk(folder, maxDepth);
        result.dirs.insert(result.dirs.end(), found.dirs.begin(), found.dirs.end());
        for (const auto& r : found.runs)
            result.runs.push_back(TrackedRun::load(r.root, *r.layout));
    }
    return result;
}

// Applies a rescan that started at `result.generation`; runs touched by an event
// since then know better than the rescan and are left alone.
void RunWatcher::applyRescan(RescanResult result)
{
    std::set<std::string> roots;
    for (TrackedRun& fresh : result.runs) {
        const std::string root = AbsolutePath::normal(fresh.run.root);
        roots.insert(root);
        auto it = m_runs.find(root);
        if (it == m_runs.end()) {
            addRun(std::move(fresh), true);
            continue;
        }
        if (it->second.generation > result.generation)
            continue;
        TrackedRun::carryOver(*it->second.layout, it->second.run, fresh.run);
        const RunChanges changes = RunDiff::diff(it->second.run, fresh.run);
        TrackedRun::keepUnchanged(it->second.run, fresh.run, changes);
        fresh.generation = it->second.generation;
        it->second = std::move(fresh);
        for (const Epoch& e : it->second.run.epochs)
            watchEpochIfIncomplete(root, e);
        for (int number : changes.removed)
            unwatchEpochContents(root, number);
        for (const Epoch& e : changes.added)
            watchEpochContents(root, e);
        emitChanges(root, changes);
    }
    std::vector<std::string> gone;
    for (const auto& [root, t] : m_runs) {
        if (!roots.count(root) && t.generation <= result.generation)
            gone.push_back(root);
    }
    for (const auto& root : gone)
        removeRun(root, true);
    const std::set<std::string> dirs(result.dirs.begin(), result.dirs.end());
    for (const auto& d : dirs) {
        if (!m_runs.count(d) && m_dirs.insert(d).second)
            m_watches->add(d, d);
    }
    std::vector<std::string> stale;
    for (const auto& d : m_dirs) {
        if (!dirs.count(d) && !DirSnapshot::isDirectory(d))
            stale.push_back(d);
    }
    for (const auto& d : stale) {
        m_dirs.erase(d);
        m_watches->remove(d);
    }
    announceHeads();
    // The safety net: a log changed without an event seen is caught here too.
    syncSources();
    checkSources({}, true);
    emitSourcesChanged();
}

} // namespace ckpt
