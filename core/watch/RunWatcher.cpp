#include "watch/RunWatcher.h"

#include "candle/CandleLayout.h"
#include "watch/InotifyNotifier.h"
#include "watch/WatchTree.h"

#include <QFile>
#include <QFileSystemWatcher>
#include <QtConcurrent>

#include <algorithm>
#include <fcntl.h>
#include <sys/stat.h>

namespace ckpt {

namespace {

QString qpath(const std::string& path)
{
    return QFile::decodeName(QByteArray::fromStdString(path));
}

std::string spath(const QString& path)
{
    return QFile::encodeName(path).toStdString();
}

std::string parentOf(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos || slash == 0 ? std::string("/") : path.substr(0, slash);
}

std::string nameOf(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// `path` is `dir` or below it.
bool within(const std::string& path, const std::string& dir)
{
    return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                           path[dir.size()] == '/');
}

// The keys of `map` strictly below `dir`.
template <typename Map> std::vector<std::string> keysBelow(const Map& map, const std::string& dir)
{
    std::vector<std::string> out;
    const std::string prefix = dir + "/";
    for (auto it = map.lower_bound(prefix); it != map.end(); ++it) {
        const std::string& key = [&]() -> const std::string& {
            if constexpr (requires { it->first; })
                return it->first;
            else
                return *it;
        }();
        if (key.compare(0, prefix.size(), prefix) != 0)
            break;
        out.push_back(key);
    }
    return out;
}

bool incomplete(const Epoch& epoch)
{
    return !epoch.info || (epoch.info->modelFile && epoch.modelPath.empty());
}

} // namespace

RunWatcher::RunWatcher(QObject* parent) : RunWatcher(Options{}, parent) {}

RunWatcher::RunWatcher(const Options& options, QObject* parent)
    : QObject(parent), m_options(options)
{
    if (!m_options.polling) {
        m_fsw = new QFileSystemWatcher(this);
        connect(m_fsw, &QFileSystemWatcher::directoryChanged, this, &RunWatcher::onPathChanged);
        connect(m_fsw, &QFileSystemWatcher::fileChanged, this, &RunWatcher::onPathChanged);
        m_inotify = new InotifyNotifier(
            [this](const std::string& dir, const std::string& name) { onEpochEntry(dir, name); },
            [this] {
                for (const auto& [epochs, root] : m_epochsDirs) {
                    m_fullEpochs.insert(epochs);
                    markDirty(epochs);
                }
            },
            this);
        if (!m_inotify->isValid()) {
            delete m_inotify;
            m_inotify = nullptr;
        }
    }
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
        connect(&m_pollTimer, &QTimer::timeout, this, &RunWatcher::pollNow);
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
    const std::string dir = WatchTree::normalise(spath(folder));
    if (std::find(m_folders.begin(), m_folders.end(), dir) != m_folders.end())
        return;
    m_folders.push_back(dir);
    adoptWalk(dir, known);
}

void RunWatcher::removeFolder(const QString& folder)
{
    const std::string dir = WatchTree::normalise(spath(folder));
    auto it = std::find(m_folders.begin(), m_folders.end(), dir);
    if (it == m_folders.end())
        return;
    m_folders.erase(it);
    removeSubtree(dir);
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
    auto it = m_runs.find(WatchTree::normalise(spath(root)));
    if (it == m_runs.end())
        return std::nullopt;
    return it->second.run;
}

bool RunWatcher::isSaveInProgress(const QString& root) const
{
    auto it = m_runs.find(WatchTree::normalise(spath(root)));
    return it != m_runs.end() && it->second.saveInProgress();
}

QStringList RunWatcher::watchedPaths() const
{
    QStringList out;
    for (const auto& [path, w] : m_watched)
        out << qpath(path);
    return out;
}

void RunWatcher::watch(const std::string& path, const std::string& notify, bool named)
{
    auto [it, inserted] = m_watched.try_emplace(path, Watched{notify, {}, false});
    it->second.notify = notify;
    if (m_options.polling) {
        it->second.key = DirSnapshot::stat(path);
        return;
    }
    if (named && m_inotify && m_inotify->addPath(path)) {
        it->second.named = true;
        return;
    }
    if (inserted)
        m_fsw->addPath(qpath(path));
}

void RunWatcher::unwatch(const std::string& path)
{
    auto it = m_watched.find(path);
    if (it == m_watched.end())
        return;
    if (it->second.named)
        m_inotify->removePath(path);
    else if (m_fsw)
        m_fsw->removePath(qpath(path));
    m_watched.erase(it);
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

void RunWatcher::onPathChanged(const QString& path)
{
    auto it = m_watched.find(spath(path));
    if (it != m_watched.end())
        markDirty(it->second.notify);
    // inotify forgets a directory that was deleted or replaced; watch it anew.
    if (m_fsw && !m_fsw->directories().contains(path) && it != m_watched.end() &&
        DirSnapshot::isDirectory(it->first))
        m_fsw->addPath(path);
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
    for (auto& [path, w] : m_watched) {
        const DirSnapshot::StatKey key = DirSnapshot::stat(path);
        if (key != w.key) {
            w.key = key;
            markDirty(w.notify);
        }
    }
}

void RunWatcher::flush()
{
    m_debounce.stop();
    // Handling one path may dirty another (a parent to re-check): loop until quiet.
    while (!m_dirty.empty()) {
        const std::string path = *m_dirty.begin();
        m_dirty.erase(m_dirty.begin());
        ++m_generation;
        if (m_runs.count(path))
            processRoot(path);
        else if (auto e = m_epochsDirs.find(path); e != m_epochsDirs.end()) {
            auto names = m_epochNames.extract(path);
            if (m_fullEpochs.erase(path) || names.empty() || !m_watched[path].named)
                processEpochs(e->second);
            else
                processEpochNames(e->second, names.mapped());
        } else if (m_pending.count(path))
            processPending(path);
        else if (m_dirs.count(path))
            processDir(path);
    }
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
    if (const Layout* layout = WatchTree::layoutOf(listing)) {
        m_dirs.erase(dir);
        unwatch(dir);
        for (const auto& below : keysBelow(m_dirs, dir)) {
            if (layout->ownsSubdirectory(nameOf(below)) ||
                layout->ownsSubdirectory(nameOf(parentOf(below)))) {
                m_dirs.erase(below);
                unwatch(below);
            }
        }
        addRun(TrackedRun::load(dir, *layout), true);
        return;
    }
    std::set<std::string> present;
    for (const auto& e : *entries) {
        if (e.type != DirEntry::Type::Directory)
            continue;
        const std::string child = dir + "/" + e.name;
        present.insert(child);
        if (!m_dirs.count(child) && !m_runs.count(child))
            adoptWalk(child);
    }
    for (const auto& below : keysBelow(m_dirs, dir)) {
        if (parentOf(below) == dir && !present.count(below))
            removeSubtree(below);
    }
    for (const auto& below : keysBelow(m_runs, dir)) {
        if (parentOf(below) == dir && !present.count(below))
            removeSubtree(below);
    }
    // CANDLE's isRunRoot looks into epochs/: a new epochs/NNN makes the parent a run.
    const std::string parent = parentOf(dir);
    if (m_dirs.count(parent)) {
        for (const Layout* layout : builtinLayouts()) {
            if (layout->ownsSubdirectory(nameOf(dir)))
                m_dirty.insert(parent);
        }
    }
}

void RunWatcher::processRoot(const std::string& root)
{
    TrackedRun& t = m_runs.at(root);
    auto entries = DirSnapshot::read(root);
    const DirListing listing = entries ? DirSnapshot::toListing(root, *entries) : DirListing{};
    // A CANDLE run stays a run while epochs/ is there; isRunRoot would list it.
    const DirEntry* epochsEntry = listing.find("epochs");
    const bool stillRun = t.layout->name() == "candle"
                              ? epochsEntry && epochsEntry->type == DirEntry::Type::Directory
                              : t.layout->isRunRoot(listing);
    if (!entries || !stillRun) {
        removeRun(root, true);
        // Whatever is left there may still hold runs further down.
        const std::string parent = parentOf(root);
        if (entries && std::any_of(m_folders.begin(), m_folders.end(),
                                   [&](const std::string& f) { return within(root, f); }))
            adoptWalk(root);
        else if (m_dirs.count(parent))
            m_dirty.insert(parent);
        return;
    }
    t.generation = m_generation;
    const DirEntry* work = listing.find("work");
    const bool live = work && work->type == DirEntry::Type::Directory;
    if (live != t.saveInProgress()) {
        t.run.workDir = live ? root + "/work" : std::string();
        if (!live) {
            std::erase_if(t.run.problems,
                          [](const Problem& p) { return p.kind == ProblemKind::InterruptedSave; });
        }
        emit saveInProgress(qpath(root), live);
    }
    std::uint64_t epochsInode = 0;
    std::set<std::string> present;
    for (const auto& e : *entries) {
        if (e.name == "epochs")
            epochsInode = e.inode;
        if (e.type == DirEntry::Type::Directory && !t.layout->ownsSubdirectory(e.name))
            present.insert(root + "/" + e.name);
    }
    if (epochsInode != t.epochsInode || m_fullEpochs.erase(t.epochsPath()))
        processEpochs(root);
    refreshLinks(m_runs.at(root));
    // Folders beside epochs/ are walked like any other (discovery does the same).
    for (const auto& child : present) {
        if (!m_dirs.count(child) && !m_runs.count(child))
            adoptWalk(child);
    }
}

void RunWatcher::refreshLinks(TrackedRun& t)
{
    const std::optional<RunLink> last = t.run.last;
    const std::optional<RunLink> best = t.run.best;
    t.layout->reloadLinks(t.run);
    const QString root = qpath(t.run.root);
    if (!RunDiff::sameLink(last, t.run.last))
        emit linkChanged(root, t.run.last ? *t.run.last : RunDiff::removedLink("last"));
    if (!RunDiff::sameLink(best, t.run.best))
        emit linkChanged(root, t.run.best ? *t.run.best : RunDiff::removedLink("best"));
}

// epochs/ changed and which entries is unknown (polling, overflow, replaced
// directory): one readdir, then only epochs whose directory appeared, went away
// or was replaced (new inode) are read.
void RunWatcher::processEpochs(const std::string& root)
{
    TrackedRun& t = m_runs.at(root);
    if (t.layout->name() != "candle") {
        reloadWhole(root);
        return;
    }
    t.generation = m_generation;
    if (m_watched.count(t.epochsPath()) && m_watched[t.epochsPath()].named)
        m_inotify->addPath(t.epochsPath()); // anew if epochs/ was replaced
    auto entries = DirSnapshot::read(t.epochsPath());
    t.epochsInode = DirSnapshot::stat(t.epochsPath()).inode;
    std::map<int, TrackedRun::EpochDir> now;
    if (entries) {
        for (const auto& e : *entries) {
            if (e.type == DirEntry::Type::File)
                continue;
            if (auto number = CandleLayout::parseEpochDirName(e.name))
                now[*number] = {e.name, e.inode};
        }
    }
    RunChanges changes;
    std::vector<int> gone;
    for (const auto& [number, dir] : t.epochDirs) {
        if (!now.count(number))
            gone.push_back(number);
    }
    for (const Epoch& e : t.run.epochs) {
        if (!now.count(e.number) && !t.epochDirs.count(e.number))
            gone.push_back(e.number);
    }
    for (int number : gone)
        syncEpoch(t, number, std::nullopt, changes);
    for (const auto& [number, dir] : now)
        syncEpoch(t, number, dir, changes);
    finishEpochChanges(root, changes);
}

// inotify named the entries that changed: one fstatat each.
void RunWatcher::processEpochNames(const std::string& root, const std::set<std::string>& names)
{
    TrackedRun& t = m_runs.at(root);
    if (t.layout->name() != "candle") {
        reloadWhole(root);
        return;
    }
    t.generation = m_generation;
    RunChanges changes;
    for (const std::string& name : names) {
        const auto number = CandleLayout::parseEpochDirName(name);
        if (!number)
            continue;
        struct stat st
        {};
        const std::string path = t.epochsPath() + "/" + name;
        if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
            syncEpoch(t, *number, TrackedRun::EpochDir{name, st.st_ino}, changes);
        } else {
            auto known = t.epochDirs.find(*number);
            // "12" going away says nothing about a "012" beside it.
            if (known == t.epochDirs.end() || known->second.name == name)
                syncEpoch(t, *number, std::nullopt, changes);
        }
    }
    finishEpochChanges(root, changes);
}

void RunWatcher::syncEpoch(TrackedRun& t, int number,
                           const std::optional<TrackedRun::EpochDir>& now, RunChanges& changes)
{
    const std::string root = t.run.root;
    auto known = t.epochDirs.find(number);
    if (!now) {
        const std::string dir =
            t.epochsPath() + "/" +
            (known != t.epochDirs.end() ? known->second.name : CandleLayout::epochDirName(number));
        if (m_pending.erase(dir))
            unwatch(dir);
        if (known != t.epochDirs.end())
            t.epochDirs.erase(known);
        if (t.run.findEpoch(number)) {
            std::erase_if(t.run.epochs, [&](const Epoch& e) { return e.number == number; });
            changes.removed.push_back(number);
        }
        return;
    }
    if (known != t.epochDirs.end() && known->second.name == now->name &&
        known->second.inode == now->inode && t.run.findEpoch(number))
        return;
    std::optional<Epoch> epoch = t.layout->loadEpoch(t.run, number);
    if (!epoch)
        return; // gone again already; its own event follows
    t.epochDirs[number] = *now;
    watchEpochIfIncomplete(root, *epoch);
    if (Epoch* old = t.run.findEpoch(number)) {
        if (!RunDiff::sameEpoch(*old, *epoch)) {
            *old = *epoch;
            changes.changed.push_back(std::move(*epoch));
        }
        return;
    }
    auto at = std::lower_bound(t.run.epochs.begin(), t.run.epochs.end(), number,
                               [](const Epoch& e, int n) { return e.number < n; });
    t.run.epochs.insert(at, *epoch);
    changes.added.push_back(std::move(*epoch));
}

void RunWatcher::finishEpochChanges(const std::string& root, const RunChanges& changes)
{
    if (changes.empty())
        return;
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
        unwatch(dir);
        return;
    }
    TrackedRun& t = it->second;
    t.generation = m_generation;
    std::optional<Epoch> epoch = t.layout->loadEpoch(t.run, number);
    Epoch* old = t.run.findEpoch(number);
    if (!epoch || !old) {
        m_pending.erase(dir);
        unwatch(dir);
        markDirty(t.epochsPath());
        return;
    }
    if (!incomplete(*epoch)) {
        m_pending.erase(dir);
        unwatch(dir);
    }
    if (!RunDiff::sameEpoch(*old, *epoch)) {
        *old = *epoch;
        emit epochChanged(qpath(root), *epoch);
    }
}

void RunWatcher::watchEpochIfIncomplete(const std::string& root, const Epoch& epoch)
{
    if (!incomplete(epoch) || epoch.dir.empty())
        return;
    m_pending[epoch.dir] = {root, epoch.number};
    watch(epoch.dir, epoch.dir);
}

void RunWatcher::reloadWhole(const std::string& root)
{
    TrackedRun& t = m_runs.at(root);
    TrackedRun fresh = TrackedRun::load(root, *t.layout);
    fresh.generation = m_generation;
    const RunChanges changes = RunDiff::diff(t.run, fresh.run);
    t = std::move(fresh);
    emitChanges(root, changes);
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

void RunWatcher::adoptWalk(const std::string& dir, const std::vector<Run>& known)
{
    const WatchTree::Outcome found = WatchTree::walk(dir, m_options.maxDepth);
    for (const std::string& d : found.dirs) {
        if (m_dirs.insert(d).second)
            watch(d, d);
    }
    for (const auto& r : found.runs) {
        if (m_runs.count(r.root))
            continue;
        auto k = std::find_if(known.begin(), known.end(), [&](const Run& run) {
            return WatchTree::normalise(run.root) == r.root;
        });
        if (k != known.end())
            addRun(TrackedRun::adopt(*k, *r.layout), false);
        else
            addRun(TrackedRun::load(r.root, *r.layout), true);
    }
}

void RunWatcher::addRun(TrackedRun tracked, bool announce)
{
    const std::string root = WatchTree::normalise(tracked.run.root);
    tracked.generation = m_generation;
    auto [it, inserted] = m_runs.insert_or_assign(root, std::move(tracked));
    TrackedRun& t = it->second;
    watch(root, root);
    watch(t.epochsPath(), t.epochsPath(), true);
    m_epochsDirs[t.epochsPath()] = root;
    if (m_options.polling) {
        // Relinking shows in the root's mtime too, but coarse network-fs times may hide it.
        watch(root + "/last", root);
        watch(root + "/best", root);
    }
    for (const Epoch& e : t.run.epochs)
        watchEpochIfIncomplete(root, e);
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
    const std::string epochs = it->second.epochsPath();
    m_runs.erase(it);
    unwatch(root);
    unwatch(epochs);
    unwatch(root + "/last");
    unwatch(root + "/best");
    m_epochsDirs.erase(epochs);
    m_epochNames.erase(epochs);
    m_fullEpochs.erase(epochs);
    for (auto p = m_pending.begin(); p != m_pending.end();) {
        if (p->second.first == root) {
            unwatch(p->first);
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
    for (const auto& root : keysBelow(m_runs, dir))
        removeRun(root, true);
    // A dropped folder that vanished stays on the list so that it is picked up
    // again by the safety rescan if it comes back.
    for (const auto& d : keysBelow(m_dirs, dir)) {
        m_dirs.erase(d);
        unwatch(d);
    }
    if (std::find(m_folders.begin(), m_folders.end(), dir) == m_folders.end() ||
        !DirSnapshot::isDirectory(dir)) {
        if (m_dirs.erase(dir))
            unwatch(dir);
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
        const std::string root = WatchTree::normalise(fresh.run.root);
        roots.insert(root);
        auto it = m_runs.find(root);
        if (it == m_runs.end()) {
            m_dirs.erase(root);
            unwatch(root);
            addRun(std::move(fresh), true);
            continue;
        }
        if (it->second.generation > result.generation)
            continue;
        const RunChanges changes = RunDiff::diff(it->second.run, fresh.run);
        fresh.generation = it->second.generation;
        it->second = std::move(fresh);
        for (const Epoch& e : it->second.run.epochs)
            watchEpochIfIncomplete(root, e);
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
            watch(d, d);
    }
    std::vector<std::string> stale;
    for (const auto& d : m_dirs) {
        if (!dirs.count(d) && !DirSnapshot::isDirectory(d))
            stale.push_back(d);
    }
    for (const auto& d : stale) {
        m_dirs.erase(d);
        unwatch(d);
    }
}

} // namespace ckpt
