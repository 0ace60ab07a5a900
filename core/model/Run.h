#pragma once

#include "model/CkptInfo.h"
#include "model/Problem.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// One saved checkpoint of a run: for CANDLE, one epochs/NNN directory.
struct Epoch
{
    int number = 0;                          // the directory number (1-based in CANDLE)
    std::string dir;                         // absolute path of the epoch directory
    std::string modelPath;                   // absolute path of the model file, empty if none
    std::optional<std::uint64_t> modelBytes; // size of the model file when present
    // With modelBytes, the model file's identity: a verdict holds only while all three match.
    std::int64_t modelMtimeNs = 0;
    std::uint64_t modelInode = 0;
    std::optional<CkptInfo> info; // absent when ckpt-info.json is missing or bad
    Problems problems;            // problems of this epoch only
};

// A named pointer into the run (CANDLE: the `last` and `best` symlinks).
struct RunLink
{
    std::string name;         // "last" or "best"
    std::string path;         // absolute path of the link itself
    std::string target;       // the link text as read (may be absolute)
    std::optional<int> epoch; // the epoch it resolves to, if any
    bool relocated = false;   // target missing or outside the run: resolved by trailing epochs/NNN
    bool symlink = true;      // false when a plain directory/file stands there
};

// One training run found on disk.
struct Run
{
    std::string root;          // absolute path of the folder holding epochs/
    std::string layout;        // "candle", ...
    std::vector<Epoch> epochs; // sorted by number
    std::optional<RunLink> last;
    std::optional<RunLink> best;
    std::string ckptLog;     // absolute path or empty
    std::string trainingLog; // absolute path or empty
    std::string historyTxt;  // absolute path or empty
    std::string workDir;     // leftover work/ directory or empty
    Problems problems;       // run-level problems (links, work/, logs)

    const Epoch* findEpoch(int number) const;
    Epoch* findEpoch(int number);
    std::uint64_t totalModelBytes() const;
    // All problems of the run and its epochs, run-level first.
    Problems allProblems() const;
};

} // namespace ckpt
