#pragma once

#include "layout/Layout.h"
#include "model/Run.h"
#include "watch/EpochDirs.h"
#include "watch/RunDiff.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

namespace ckpt {

// A run as the watcher knows it: the loaded Run plus what lets it see changes
// cheaply (the inode of every epoch directory, the inode of the epochs folder
// itself). Which entries are epochs is the layout's call (Layout::epochNumberOf).
struct TrackedRun
{
    using EpochDir = EpochDirs::Dir;

    Run run;
    const Layout* layout = nullptr;
    EpochDirs epochDirs; // by epoch number
    std::uint64_t epochsInode = 0;
    std::uint64_t generation = 0; // the watcher's event count when last touched

    // Loads the whole run and notes its epoch directories.
    static TrackedRun load(const std::string& root, const Layout& layout);
    // Adopts a run loaded elsewhere (by Scanner::scan) and notes its epoch directories.
    static TrackedRun adopt(Run run, const Layout& layout);
    // Re-reads the inodes of epochs/ and its entries (one readdir).
    void noteEpochDirs();

    // epochs/ changed, entries unknown (polling, overflow, replaced directory):
    // one readdir; only epochs whose directory appeared, went away or was
    // replaced (new inode: CANDLE renames work/ over it) are read.
    RunChanges syncAllEpochs();
    // inotify named the entries that changed: one lstat each.
    RunChanges syncEpochNames(const std::set<std::string>& names);

    // Gives each epoch of `after` what the layout carries over from the epoch of
    // the same number in `before` (Layout::carryOver).
    static void carryOver(const Layout& layout, const Run& before, Run& after);
    // A reload that changed no epoch keeps the epochs it had: they stay shared
    // with the copies handed out (the window's registry), not held twice.
    static void keepUnchanged(const Run& before, Run& after, const RunChanges& changes);
    // The path whose change means the epoch changed: its file when the layout's
    // epochs are files (WatchHints::epochFiles), its directory otherwise; empty
    // when there is none to watch.
    std::string watchPathOf(const Epoch& epoch) const;
    // The layout's hints for this run (a Lightning version folder keeps its
    // files in checkpoints/, a bare folder at its root).
    WatchHints hints() const { return layout->watchHintsFor(run); }
    bool epochFiles() const { return hints().epochFiles; }

    // The folder holding the epoch directories (the root itself for some layouts).
    std::string epochsPath() const;
    bool epochsAtRoot() const { return epochsPath() == run.directory(); }
    bool saveInProgress() const { return run.saveInProgress(); }

private:
    // Brings epoch `number` in line with its directory entry (`now` empty: absent).
    void syncEpoch(int number, const std::optional<EpochDir>& now, RunChanges& changes);
};

} // namespace ckpt
