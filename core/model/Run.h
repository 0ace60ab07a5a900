#pragma once

#include "model/Epoch.h"
#include "model/EpochList.h"
#include "model/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// A named pointer into the run (CANDLE: the `last` and `best` symlinks).
struct RunLink
{
    std::string name;         // the layout's name for it ("last", "best")
    std::string path;         // absolute path of the link itself
    std::string target;       // the link text as read (may be absolute)
    std::optional<int> epoch; // the epoch it resolves to, if any
    bool relocated = false;   // target missing or outside the run: resolved by its trailing path
    bool symlink = true;      // false when a plain directory/file stands there
};

// A file the layout reads the run's history or log from.
struct RunSource
{
    std::string kind; // the layout's name for it, JSON-friendly ("ckpt_log", "training_log")
    std::string path; // absolute; empty when the layout looked for it and found none
};

// Something being written right now (or left over by an interrupted save).
struct InProgressItem
{
    std::string path;         // absolute
    std::optional<int> epoch; // the epoch/step it will become, when the name tells
};

// One training run found on disk.
struct Run
{
    std::string root;   // absolute path of the run's root folder
    std::string layout; // the layout's name (Layout::name())
    EpochList epochs;   // sorted by number; copies share it until one is changed
    std::vector<RunLink> links;
    std::vector<RunSource> sources;
    std::vector<InProgressItem> inProgress;
    Problems problems; // run-level problems (links, in-progress leftovers, logs)
    // The folder holding the run's files when that is not the root: several runs
    // sharing one folder (MindSpore's `<prefix>_N` reruns) are each named
    // `<folder>/<prefix>`, a path that does not exist. Empty: the root itself.
    std::string dir;

    const Epoch* findEpoch(int number) const;
    // For writing: the epochs become this run's own (EpochList); findEpoch never copies.
    Epoch* editEpoch(int number);
    std::uint64_t totalModelBytes() const;
    // All problems of the run and its epochs, run-level first.
    Problems allProblems() const;

    const RunLink* link(std::string_view name) const;
    // The epoch a link resolves to; nullopt when there is no such link or it resolves nowhere.
    std::optional<int> linkedEpoch(std::string_view name) const;
    // Replaces (or, with nullopt, removes) the link called `name`.
    void setLink(std::string_view name, std::optional<RunLink> link);
    // The path of a source of that kind; empty when absent.
    std::string sourcePath(std::string_view kind) const;
    bool saveInProgress() const { return !inProgress.empty(); }
    // The directory the run's files are in: where to list, watch and stat.
    const std::string& directory() const { return dir.empty() ? root : dir; }

    // Absolute paths of an epoch's directory and files.
    std::string pathOf(const Epoch& epoch) const;
    std::string pathOf(const Epoch& epoch, const EpochFile& file) const;
    // The model file's absolute path when it is present; empty otherwise.
    std::string modelPath(const Epoch& epoch) const;
    // The same into `out` (its text replaced): no new string for each of a
    // scan's epochs.
    void pathOf(const Epoch& epoch, std::string& out) const;
    void pathOf(const Epoch& epoch, const EpochFile& file, std::string& out) const;
    void modelPath(const Epoch& epoch, std::string& out) const;
};

} // namespace ckpt
