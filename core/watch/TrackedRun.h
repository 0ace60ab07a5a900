#pragma once

#include "layout/Layout.h"
#include "model/Run.h"

#include <cstdint>
#include <map>
#include <string>

namespace ckpt {

// A run as the watcher knows it: the loaded Run plus what lets it see changes
// cheaply (the inode of every epoch directory, the inode of epochs/ itself).
struct TrackedRun
{
    struct EpochDir
    {
        std::string name;
        std::uint64_t inode = 0;
    };

    Run run;
    const Layout* layout = nullptr;
    std::map<int, EpochDir> epochDirs; // by epoch number
    std::uint64_t epochsInode = 0;
    std::uint64_t generation = 0; // the watcher's event count when last touched

    // Loads the whole run and notes its epoch directories.
    static TrackedRun load(const std::string& root, const Layout& layout);
    // Adopts a run loaded elsewhere (by Scanner::scan) and notes its epoch directories.
    static TrackedRun adopt(Run run, const Layout& layout);
    // Re-reads the inodes of epochs/ and its entries (one readdir).
    void noteEpochDirs();

    std::string epochsPath() const { return run.root + "/epochs"; }
    bool saveInProgress() const { return !run.workDir.empty(); }
};

} // namespace ckpt
