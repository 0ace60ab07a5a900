#include "watch/TrackedRun.h"

#include "watch/DirSnapshot.h"

#include <algorithm>
#include <filesystem>
#include <sys/stat.h>

namespace ckpt {

namespace {

// An epoch's entry in the epochs folder. With file epochs several files may make
// one epoch (MindSpore: saves at several steps): the entry then stands for all of
// them, its inode mixing theirs so that any of them changing reloads the epoch.
void noteEntry(std::map<int, TrackedRun::EpochDir>& out, int number, const DirSnapshot::Entry& e,
               bool fileEpochs)
{
    auto [it, added] = out.try_emplace(number, TrackedRun::EpochDir{e.name, e.inode});
    if (added || !fileEpochs)
        return;
    it->second.name = std::max(it->second.name, e.name);
    it->second.inode = it->second.inode * 1000003u ^ e.inode;
}

} // namespace

TrackedRun TrackedRun::load(const std::string& root, const Layout& layout)
{
    return adopt(layout.loadRun(root), layout);
}

TrackedRun TrackedRun::adopt(Run run, const Layout& layout)
{
    TrackedRun t;
    t.run = std::move(run);
    t.layout = &layout;
    t.noteEpochDirs();
    return t;
}

std::string TrackedRun::epochsPath() const
{
    const std::string sub = hints().epochsDir;
    return sub.empty() ? run.directory() : run.directory() + "/" + sub;
}

void TrackedRun::noteEpochDirs()
{
    epochDirs.clear();
    epochsInode = DirSnapshot::stat(epochsPath()).inode;
    auto entries = DirSnapshot::read(epochsPath());
    if (!entries)
        return;
    const bool files = hints().epochFiles;
    std::map<int, EpochDir> listed;
    for (const auto& e : *entries) {
        if (e.type == DirEntry::Type::File && !files)
            continue;
        if (auto number = layout->epochNumberFor(run, e.name))
            noteEntry(listed, *number, e, files);
    }
    epochDirs.assign(listed);
}

void TrackedRun::carryOver(const Layout& layout, const Run& before, Run& after)
{
    for (Epoch& e : after.epochs.edit())
        if (const Epoch* old = before.findEpoch(e.number))
            layout.carryOver(*old, e);
}

void TrackedRun::keepUnchanged(const Run& before, Run& after, const RunChanges& changes)
{
    if (changes.added.empty() && changes.removed.empty() && changes.changed.empty())
        after.epochs = before.epochs;
}

std::string TrackedRun::watchPathOf(const Epoch& epoch) const
{
    if (epochFiles()) {
        const EpochFile* file = epoch.modelFile();
        return file ? run.pathOf(epoch, *file) : std::string();
    }
    return epoch.dir.empty() ? std::string() : run.pathOf(epoch);
}

RunChanges TrackedRun::syncAllEpochs()
{
    if (hints().numbersFromListing) {
        // Which files are epochs follows from the whole listing: the layout re-reads
        // the run, keeping what it read of unchanged files.
        Run fresh = layout->reloadRun(run);
        carryOver(*layout, run, fresh);
        RunChanges changes = RunDiff::diff(run, fresh);
        keepUnchanged(run, fresh, changes);
        run = std::move(fresh);
        epochsInode = DirSnapshot::stat(epochsPath()).inode;
        return changes;
    }
    auto entries = DirSnapshot::read(epochsPath());
    epochsInode = DirSnapshot::stat(epochsPath()).inode;
    std::map<int, EpochDir> now;
    const bool files = hints().epochFiles;
    if (entries) {
        for (const auto& e : *entries) {
            if (e.type == DirEntry::Type::File && !files)
                continue;
            if (auto number = layout->epochNumberFor(run, e.name))
                noteEntry(now, *number, e, files);
        }
    }
    RunChanges changes;
    std::set<int> gone;
    for (const auto& [number, dir] : epochDirs) {
        if (!now.count(number))
            gone.insert(number);
    }
    for (const Epoch& e : run.epochs) {
        if (!now.count(e.number))
            gone.insert(e.number);
    }
    for (int number : gone)
        syncEpoch(number, std::nullopt, changes);
    for (const auto& [number, dir] : now)
        syncEpoch(number, dir, changes);
    return changes;
}

RunChanges TrackedRun::syncEpochNames(const std::set<std::string>& names)
{
    // Several files may make one file epoch: one readdir settles which remain.
    if (hints().epochFiles)
        return syncAllEpochs();
    RunChanges changes;
    for (const std::string& name : names) {
        const auto number = layout->epochNumberFor(run, name);
        if (!number)
            continue;
        struct stat st
        {};
        const std::string path = epochsPath() + "/" + name;
        if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
            syncEpoch(*number, EpochDir{name, st.st_ino}, changes);
        } else {
            const EpochDir* known = epochDirs.find(*number);
            // "12" going away says nothing about a "012" beside it.
            if (!known || known->name == name)
                syncEpoch(*number, std::nullopt, changes);
        }
    }
    return changes;
}

void TrackedRun::syncEpoch(int number, const std::optional<EpochDir>& now, RunChanges& changes)
{
    const EpochDir* known = epochDirs.find(number);
    if (!now) {
        epochDirs.erase(number);
        if (run.findEpoch(number)) {
            run.epochs.eraseIf([&](const Epoch& e) { return e.number == number; });
            changes.removed.push_back(number);
        }
        return;
    }
    if (known && known->name == now->name && known->inode == now->inode && run.findEpoch(number))
        return;
    std::optional<Epoch> epoch = layout->loadEpoch(run, number);
    if (!epoch)
        return; // gone again already; its own event follows
    epochDirs.set(number, *now);
    if (const Epoch* old = run.findEpoch(number)) {
        layout->carryOver(*old, *epoch);
        if (!RunDiff::sameEpoch(*old, *epoch)) {
            *run.editEpoch(number) = *epoch;
            changes.changed.push_back(std::move(*epoch));
        }
        return;
    }
    auto at = std::lower_bound(run.epochs.begin(), run.epochs.end(), number,
                               [](const Epoch& e, int n) { return e.number < n; });
    run.epochs.insert(at, *epoch);
    changes.added.push_back(std::move(*epoch));
}

} // namespace ckpt
