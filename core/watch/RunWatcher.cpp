#include "watch/RunWatcher.h"

#include "layout/AbsolutePath.h"
#include "watch/WatchPaths.h"
#include "watch/WatchSet.h"
#include "watch/WatchTree.h"

#include <QFile>
#include <QtConcurrent>

#include <algorithm>

namespace ckpt {

namespace {

// Not finished yet: no record (the layout's finished marker), or a named file missing.
bool incomplete(const Epoch& epoch)
{
    if (!epoch.hasRecord())
        return true;
    const EpochFile* model = epoch.modelFile();
    return model && !model->present;
}

} // namespace

RunWatcher::RunWatcher(QObject* parent) : RunWatcher(Options{}, parent) {}

RunWatcher::RunWatcher(const Options& options, QObject* parent)
    : QObject(parent), m_options(options)
{
    WatchSet::Callbacks callbacks;
    callbacks.changed = [this](const std::string& path) { markDirty(path); };
    callbacks.entryChanged = [this](const std::string& dir, const std::string& name) {
        onEpochEntry(dir, name);
    };
    callbacks.overflow = [this] {
        for (const auto& [epochs, root] : m_epochsDirs) {
            m_fullEpochs.insert(epochs);
            markDirty(epochs);
        }
    };
    m_watches = new WatchSet(m_options.polling, std::move(callbacks), this);
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(m_options.debounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &RunWatcher::flush);
    if (m_options.rescanIntervalMs > 0) {
        m_rescanTimer.setInterval(m_options.rescanIntervalMs);
        connect(&m_rescanTimer, &QTimer::timeout, this, &RunWatcher::startPeriodicRescan);
        m_rescanTimer.start();
    }
    if (m_options.polling) {
        m_pollTimer.setInterval(std::max(1, m_options.pollIntervalMs));
        connect(&m_pollTimer, &QTimer::timeout, m_watches, &WatchSet::poll);
        m_pollTimer.start();
    }
    connect(&m_rescan, &QFutureWatcher<RescanResult>::finished, this,
            [this] { applyRescan(m_rescan.result()); });
}

RunWatcher::~RunWatcher()
{
    // The worker touches no member, but its result must not arrive after us.
    m_rescan.disconnect(this);
    m_rescan.waitForFinished();
}

void RunWatcher::addFolder(const QString& folder, const std::vector<Run>& known)
{
    const std::string dir = AbsolutePath::normal(spath(folder));
    if (std::find(m_folders.begin(), m_folders.end(), dir) != m_folders.end())
        return;
    m_folders.push_back(dir);
    adoptWalk(dir, known);
    syncSources();
}

void RunWatcher::removeFolder(const QString& folder)
{
    const std::string dir = AbsolutePath::normal(spath(folder));
    auto it = std::find(m_folders.begin(), m_folders.end(), dir);
    if (it == m_folders.end())
        return;
    m_folders.erase(it);
    removeSubtree(dir);
    syncSources();
}

QStringList RunWatcher::folders() const
{
    QStringList out;
    for (const auto& f : m_folders)
        out << qpath(f);
    return out;
}

std::vector<Run> RunWatcher::runs() const
{
    std::vector<Run> out;
    out.reserve(m_runs.size());
    for (const auto& [root, tracked] : m_runs)
        out.push_back(tracked.run);
    return out;
}

std::optional<Run> RunWatcher::run(const QString& root) const
{
    auto it = m_runs.find(AbsolutePath::normal(spath(root)));
    if (it == m_runs.end())
        return std::nullopt;
    return it->second.run;
}

bool RunWatcher::isSaveInProgress(const QString& root) const
{
    auto it = m_runs.find(AbsolutePath::normal(spath(root)));
    return it != m_runs.end() && it->second.saveInProgress();
}

QStringList RunWatcher::watchedPaths() const
{
    QStringList out;
    for (const auto& path : m_watches->paths())
        out << qpath(path);
    return out;
}

void RunWatcher::onEpochEntry(const std::string& dir, const std::string& name)
{
    auto it = m_epochsDirs.find(dir);
    if (it == m_epochsDirs.end())
        return;
    if (name.empty()) {
        // epochs/ itself went away or moved: the root decides what is left.
        m_fullEpochs.insert(dir);
        markDirty(it->second);
        return;
    }
    m_epochNames[dir].insert(name);
    markDirty(dir);
}

void RunWatcher::markDirty(const std::string& path)
{
    m_dirty.insert(path);
    // Not restarted by later events: a steady stream is still handled every window.
    if (!m_debounce.isActive())
        m_debounce.start();
}

void RunWatcher::pollNow()
{
    m_watches->poll();
}

void RunWatcher::flush()
{
    m_debounce.stop();
    // Handling one path may dirty another (a parent to re-check): loop until quiet.
    std::set<std::string> touched;
    while (!m_dirty.empty()) {
        const std::string path = *m_dirty.begin();
        m_dirty.erase(m_dirty.begin());
        touched.insert(path);
        ++m_generation;
        if (m_runs.count(path))
            processRoot(path);
        else if (auto e = m_epochsDirs.find(path); e != m_epochsDirs.end())
            processEpochsDir(path, e->second);
        else if (m_pending.count(path))
            processPending(path);
        else if (m_contents.count(path))
            processContents(path);
        else if (m_dirs.count(path))
            processDir(path);
    }
    announceHeads();
    syncSources();
    checkSources(touched);
    emitSourcesChanged();
}

void RunWatcher::syncSources()
{
    std::map<std::string, std::set<std::string>> wanted; // file -> roots
    for (const auto& [root, t] : m_runs) {
        for (const RunSource& s : t.run.sources)
            if (!s.path.empty())
                wanted[AbsolutePath::normal(s.path)].insert(root);
        for (const std::string& path : t.layout->sourceCandidates(t.run))
            wanted[AbsolutePath::normal(path)].insert(root);
    }
    for (auto it = m_sources.begin(); it != m_sources.end();) {
        if (wanted.count(it->first)) {
            ++it;
            continue;
        }
        m_watches->remove(it->first);
        it = m_sources.erase(it);
    }
    std::set<std::string> dirs;
    for (auto& [file, roots] : wanted) {
        dirs.insert(WatchTree::parentOf(file));
        auto [it, added] = m_sources.try_emplace(file);
        it->second.roots = std::move(roots);
        if (added) {
            it->second.seen = DirSnapshot::stat(file);
            m_watches->add(file, file);
        }
    }
    // A file that does not exist cannot be watched: its folder's entries can
    // (created, renamed into place). Most are a run root or a walked folder
    // already; a watch another role dropped since is taken up again here.
    for (auto it = m_sourceDirs.begin(); it != m_sourceDirs.end();) {
        if (dirs.count(*it)) {
            ++it;
            continue;
        }
        if (!watchedOtherwise(*it))
            m_watches->remove(*it);
        it = m_sourceDirs.erase(it);
    }
    for (const std::string& dir : dirs) {
        if (m_watches->contains(dir))
            continue;
        m_watches->add(dir, dir);
        m_sourceDirs.insert(dir);
    }
}

bool RunWatcher::watchedOtherwise(const std::string& path) const
{
    return m_runs.count(path) || m_dirs.count(path) || m_epochsDirs.count(path) ||
           m_pending.count(path) || m_contents.count(path) || m_sources.count(path);
}

void RunWatcher::checkSources(const std::set<std::string>& touched, bool all)
{
    std::set<std::string> reload;
    for (auto& [file, source] : m_sources) {
        // The file itself, or the folder holding it (it was replaced, made or removed).
        if (!all && !touched.count(file) && !touched.count(WatchTree::parentOf(file)))
            continue;
        const DirSnapshot::StatKey now = DirSnapshot::stat(file);
        if (now == source.seen)
            continue;
        if (now.inode != source.seen.inode || now.exists != source.seen.exists) {
            // inotify forgets a file that was replaced or removed: watch it anew.
            m_watches->remove(file);
            m_watches->add(file, file);
            // Which files the run reads may differ now (a log created where none
            // was, one found higher up removed): the layout decides.
            reload.insert(source.roots.begin(), source.roots.end());
        }
        source.seen = now;
        m_sourcesDue.insert(source.roots.begin(), source.roots.end());
    }
    if (reload.empty())
        return;
    for (const std::string& root : reload) {
        if (auto it = m_runs.find(root); it != m_runs.end())
            it->second.layout->reloadSources(it->second.run);
    }
    // The new sources go out with the head before the history is asked for again.
    announceHeads();
    syncSources();
}

void RunWatcher::emitSourcesChanged()
{
    const std::set<std::string> due = std::move(m_sourcesDue);
    m_sourcesDue.clear();
    for (const std::string& root : due)
        if (m_runs.count(root))
            emit sourcesChanged(qpath(root));
}

void RunWatcher::announceHeads()
{
    const auto sameSources = [](const Run& a, const Run& b) {
        return std::equal(a.sources.begin(), a.sources.end(), b.sources.begin(), b.sources.end(),
                          [](const RunSource& x, const RunSource& y) {
                              return x.kind == y.kind && x.path == y.path;
                          });
    };
    for (const auto& [root, t] : m_runs) {
        auto known = m_heads.find(root);
        if (known != m_heads.end() && RunDiff::sameHead(known->second, t.run))
            continue;
        // The history is read from the sources: other files, other history.
        if (known != m_heads.end() && !sameSources(known->second, t.run))
            m_sourcesDue.insert(root);
        Run head = RunDiff::headOf(t.run);
        m_heads[root] = head;
        emit runHeadChanged(head);
    }
}

void RunWatcher::watchEpochContents(const std::string& root, const Epoch& epoch)
{
    auto run = m_runs.find(root);
    if (run == m_runs.end())
        return;
    const bool file = run->second.epochFiles();
    // An unfinished epoch file is watched as pending until it is whole.
    if (file && incomplete(epoch))
        return;
    // Epoch directories are relative to the run root (an Orbax step may be the root's child).
    const std::string dir = run->second.watchPathOf(epoch);
    if (dir.empty() || m_contents.count(dir) || m_contents.size() >= kContentWatches)
        return;
    std::size_t& perRun = m_contentCount[root];
    if (perRun >= kContentWatchesPerRun)
        return;
    // An epoch that is a file is watched itself (written, truncated, overwritten in place).
    if (file) {
        m_watches->add(dir, dir);
        m_fileContents.insert(dir);
    } else if (!m_watches->addContents(dir)) {
        return;
    }
    m_contents[dir] = {root, epoch.number};
    ++perRun;
}

// `number` empty: every epoch of the run.
void RunWatcher::unwatchEpochContents(const std::string& root, std::optional<int> number)
{
    for (auto c = m_contents.begin(); c != m_contents.end();) {
        if (c->second.first == root && (!number || c->second.second == *number)) {
            --m_contentCount[root];
            if (m_fileContents.erase(c->first))
                m_watches->remove(c->first);
            else
                m_watches->removeContents(c->first);
            c = m_contents.erase(c);
        } else {
            ++c;
        }
    }
}

// A file inside a finished epoch changed: read that epoch again.
void RunWatcher::processContents(const std::string& dir)
{
    const auto [root, number] = m_contents.at(dir);
    auto it = m_runs.find(root);
    std::optional<Epoch> epoch;
    const Epoch* old = nullptr;
    if (it != m_runs.end()) {
        it->second.generation = m_generation;
        epoch = it->second.layout->loadEpoch(it->second.run, number);
        old = it->second.run.findEpoch(number);
    }
    if (!epoch || !old || it->second.watchPathOf(*epoch) != dir) {
        // Gone or replaced: epochs/ events tell the rest.
        unwatchEpochContents(root, number);
        if (it != m_runs.end())
            markDirty(it->second.epochsPath());
        return;
    }
    it->second.layout->carryOver(*old, *epoch);
    if (RunDiff::sameEpoch(*old, *epoch))
        return;
    *it->second.run.editEpoch(number) = *epoch;
    emit epochChanged(qpath(root), *epoch);
    // The best check reads every epoch's recorded metric.
    refreshLinks(it->second);
}

// A walked directory changed: a run may have appeared in it, or below it.
void RunWatcher::processDir(const std::string& dir)
{
    auto entries = DirSnapshot::read(dir);
    if (!entries) {
        removeSubtree(dir);
        return;
    }
    const DirListing listing = DirSnapshot::toListing(dir, *entries);
    if (syncFolderRuns(listing))
        return;
    const Layout* owner = WatchTree::layoutOf(listing); // of runs sharing the folder
    std::set<std::string> present;
    for (const auto& e : *entries) {
        if (e.type != DirEntry::Type::Directory || (owner && owner->ownsSubdirectory(e.name)))
            continue;
        const std::string child = dir + "/" + e.name;
        present.insert(child);
        if (!m_dirs.count(child) && !m_runs.count(child))
            adoptWalk(child);
    }
    for (const auto& below : WatchTree::keysBelow(m_dirs, dir)) {
        if (WatchTree::parentOf(below) == dir && !present.count(below))
            removeSubtree(below);
    }
    for (const auto& below : WatchTree::keysBelow(m_runs, dir)) {
        if (WatchTree::parentOf(below) == dir && !present.count(below) && !sharesFolder(below))
            removeSubtree(below);
    }
    // CANDLE's isRunRoot looks into epochs/: a new epochs/NNN makes the parent a run.
    const std::string parent = WatchTree::parentOf(dir);
    if (m_dirs.count(parent)) {
        for (const Layout* layout : builtinLayouts()) {
            if (layout->ownsSubdirectory(WatchTree::nameOf(dir)))
                m_dirty.insert(parent);
        }
    }
}

void RunWatcher::processRoot(const std::string& root)
{
    TrackedRun& t = m_runs.at(root);
    auto entries = DirSnapshot::read(root);
    const DirListing listing = entries ? DirSnapshot::toListing(root, *entries) : DirListing{};
    // A run whose epochs live in their own folder stays a run while that folder
    // is there (isRunRoot would list it); otherwise the layout decides.
    const std::string epochsDir = t.layout->watchHintsFor(t.run).epochsDir;
    const DirEntry* epochsEntry = epochsDir.empty() ? nullptr : listing.find(epochsDir);
    const bool stillRun = !epochsDir.empty()
                              ? epochsEntry && epochsEntry->type == DirEntry::Type::Directory
                              : WatchTree::isSoleRun(*t.layout, listing);
    if (!entries || !stillRun) {
        removeRun(root, true);
        // Whatever is left there may still hold runs further down.
        const std::string parent = WatchTree::parentOf(root);
        if (entries && std::any_of(m_folders.begin(), m_folders.end(), [&](const std::string& f) {
                return WatchTree::within(root, f);
            }))
            adoptWalk(root);
        else if (m_dirs.count(parent))
            m_dirty.insert(parent);
        return;
    }
    t.generation = m_generation;
    if (t.layout->refreshInProgress(t.run, listing))
        emit saveInProgress(qpath(root), t.saveInProgress());
    std::uint64_t epochsInode = 0;
    std::set<std::string> present;
    for (const auto& e : *entries) {
        if (!epochsDir.empty() && e.name == epochsDir)
            epochsInode = e.inode;
        if (e.type == DirEntry::Type::Directory && !t.layout->ownsSubdirectory(e.name) &&
            !t.layout->epochNumberOf(e.name) && !t.layout->isInProgressName(e.name))
            present.insert(root + "/" + e.name);
    }
    // Epochs at the root: the root's listing is the epochs' listing.
    if (t.epochsAtRoot() || epochsInode != t.epochsInode || m_fullEpochs.erase(t.epochsPath()))
        processEpochs(root);
    else if (m_dirty.erase(t.epochsPath()))
        processEpochsDir(t.epochsPath(), root);
    // Epochs first: a link must never name an epoch the listener has not heard of.
    refreshLinks(m_runs.at(root));
    // Folders beside epochs/ are walked like any other (discovery does the same).
    for (const auto& child : present) {
        if (!m_dirs.count(child) && !m_runs.count(child))
            adoptWalk(child);
    }
}

void RunWatcher::refreshLinks(TrackedRun& t)
{
    if (t.layout->linkNames().empty())
        return;
    Run before;
    before.links = t.run.links;
    t.layout->reloadLinks(t.run);
    const QString root = qpath(t.run.root);
    for (const RunLink& link : RunDiff::changedLinks(before, t.run))
        emit linkChanged(root, link);
}

void RunWatcher::processEpochsDir(const std::string& epochsDir, const std::string& root)
{
    auto names = m_epochNames.extract(epochsDir);
    if (m_fullEpochs.erase(epochsDir) || names.empty() || !m_watches->isNamed(epochsDir))
        processEpochs(root);
    else
        processEpochNames(root, names.mapped());
    // A layout may keep a link among its epochs (Lightning's checkpoints/last.ckpt):
    // relinking it changes no epoch.
    if (auto it = m_runs.find(root); it != m_runs.end())
        refreshLinks(it->second);
}

void RunWatcher::processEpochs(const std::string& root)
{
    TrackedRun& t = m_runs.at(root);
    t.generation = m_generation;
    if (!t.epochsAtRoot())
        m_watches->rearm(t.epochsPath()); // anew if epochs/ was replaced
    finishEpochChanges(root, t.syncAllEpochs());
}

void RunWatcher::processEpochNames(const std::string& root, const std::set<std::string>& names)
{
    TrackedRun& t = m_runs.at(root);
    t.generation = m_generation;
    finishEpochChanges(root, t.syncEpochNames(names));
}

void RunWatcher::finishEpochChanges(const std::string& root, const RunChanges& changes)
{
    if (changes.empty())
        return;
    // Incomplete epochs are watched until their files are all there.
    for (int number : changes.removed) {
        unwatchEpochContents(root, number);
        for (auto p = m_pending.begin(); p != m_pending.end();) {
            if (p->second.first == root && p->second.second == number) {
                m_watches->remove(p->first);
                p = m_pending.erase(p);
            } else {
                ++p;
            }
        }
    }
    for (const Epoch& e : changes.added) {
        watchEpochIfIncomplete(root, e);
        watchEpochContents(root, e);
    }
    for (const Epoch& e : changes.changed) {
        watchEpochIfIncomplete(root, e);
        // A replaced epoch file (new inode) needs its watch anew.
        if (auto it = m_runs.find(root); it != m_runs.end() && it->second.epochFiles()) {
            unwatchEpochContents(root, e.number);
            watchEpochContents(root, e);
        }
    }
    emitChanges(root, changes);
    // Links and the best check depend on which epochs exist.
    if (auto it = m_runs.find(root); it != m_runs.end())
        refreshLinks(it->second);
}

void RunWatcher::processPending(const std::string& dir)
{
    const auto [root, number] = m_pending.at(dir);
    auto it = m_runs.find(root);
    if (it == m_runs.end()) {
        m_pending.erase(dir);
        m_watches->remove(dir);
        return;
    }
    TrackedRun& t = it->second;
    t.generation = m_generation;
    std::optional<Epoch> epoch = t.layout->loadEpoch(t.run, number);
    const Epoch* old = t.run.findEpoch(number);
    if (!epoch || !old) {
        m_pending.erase(dir);
        m_watches->remove(dir);
        markDirty(t.epochsPath());
        return;
    }
    t.layout->carryOver(*old, *epoch);
    const bool finished = !incomplete(*epoch);
    if (finished) {
        m_pending.erase(dir);
        m_watches->remove(dir);
    }
    if (!RunDiff::sameEpoch(*old, *epoch)) {
        *t.run.editEpoch(number) = *epoch;
        emit epochChanged(qpath(root), *epoch);
    }
    // A finished epoch file goes on being watched for overwrites in place.
    if (finished && t.epochFiles())
        watchEpochContents(root, *epoch);
}

void RunWatcher::watchEpochIfIncomplete(const std::string& root, const Epoch& epoch)
{
    auto run = m_runs.find(root);
    if (!incomplete(epoch) || run == m_runs.end())
        return;
    const std::string dir = run->second.watchPathOf(epoch);
    if (dir.empty() || m_pending.count(dir))
        return;
    m_pending[dir] = {root, epoch.number};
    m_watches->add(dir, dir);
}

void RunWatcher::emitChanges(const std::string& root, const RunChanges& changes)
{
    const QString r = qpath(root);
    for (int number : changes.removed)
        emit epochRemoved(r, number);
    for (const Epoch& e : changes.added)
        emit epochAdded(r, e);
    for (const Epoch& e : changes.changed)
        emit epochChanged(r, e);
    for (const RunLink& link : changes.links)
        emit linkChanged(r, link);
    if (changes.saveInProgress)
        emit saveInProgress(r, *changes.saveInProgress);
}

} // namespace ckpt
