#include "watch/TrackedRun.h"

#include "watch/DirSnapshot.h"

#include <algorithm>
#include <filesystem>
#include <sys/stat.h>

namespace ckpt {

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
    const std::string sub = layout->watchHintsFor(run).epochsDir;
    return sub.empty() ? run.root : run.root + "/" + sub;
}

void TrackedRun::noteEpochDirs()
{
    epochDirs.clear();
    const bool files = layout->watchHintsFor(run).epochFiles;
    epochsInode = DirSnapshot::stat(epochsPath()).inode;
    auto entries = DirSnapshot::read(epochsPath());
    if (!entries)
        return;
    for (const auto& e : *entries) {
        if (e.type == DirEntry::Type::File && !files)
            continue;
        if (auto number = layout->epochNumberOf(e.name))
            epochDirs[*number] = {e.name, e.inode};
    }
}

RunChanges TrackedRun::syncAllEpochs()
{
    auto entries = DirSnapshot::read(epochsPath());
    epochsInode = DirSnapshot::stat(epochsPath()).inode;
    const bool files = layout->watchHintsFor(run).epochFiles;
    std::map<int, EpochDir> now;
    if (entries) {
        for (const auto& e : *entries) {
            if (e.type == DirEntry::Type::File && !files)
                continue;
            if (auto number = layout->epochNumberOf(e.name))
                now[*number] = {e.name, e.inode};
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
    RunChanges changes;
    const bool files = layout->watchHintsFor(run).epochFiles;
    for (const std::string& name : names) {
        const auto number = layout->epochNumberOf(name);
        if (!number)
            continue;
        struct stat st
        {};
        const std::string path = epochsPath() + "/" + name;
        if (::lstat(path.c_str(), &st) == 0 && (files || !S_ISREG(st.st_mode))) {
            syncEpoch(*number, EpochDir{name, st.st_ino}, changes);
        } else {
            auto known = epochDirs.find(*number);
            // "12" going away says nothing about a "012" beside it.
            if (known == epochDirs.end() || known->second.name == name)
                syncEpoch(*number, std::nullopt, changes);
        }
    }
    return changes;
}

void TrackedRun::syncEpoch(int number, const std::optional<EpochDir>& now, RunChanges& changes)
{
    auto known = epochDirs.find(number);
    if (!now) {
        if (known != epochDirs.end())
            epochDirs.erase(known);
        if (run.findEpoch(number)) {
            std::erase_if(run.epochs, [&](const Epoch& e) { return e.number == number; });
            changes.removed.push_back(number);
        }
        return;
    }
    if (known != epochDirs.end() && known->second.name == now->name &&
        known->second.inode == now->inode && run.findEpoch(number))
        return;
    std::optional<Epoch> epoch = layout->loadEpoch(run, number);
    if (!epoch)
        return; // gone again already; its own event follows
    epochDirs[number] = *now;
    if (Epoch* old = run.findEpoch(number)) {
        if (!RunDiff::sameEpoch(*old, *epoch)) {
            *old = *epoch;
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
