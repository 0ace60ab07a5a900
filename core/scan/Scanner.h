#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "model/Run.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace ckpt {

// Discovery: finds every run of every known layout below a folder, however
// deep, without following symlinked directories (so no loops) and without
// leaving the folder. Runs are loaded on all cores.
class Scanner
{
public:
    struct Options
    {
        int maxDepth = 64;
        int threads = 0; // 0: one per core
        // Set: each run is handed over to `consume` on the thread that loaded
        // it, concurrently with the others, and dropped afterwards; Outcome::runs
        // stays empty and `onRun` is not called. For a consumer that turns each
        // run into something smaller (`ckpt scan --json` prints it), so that
        // memory is that of the runs in flight, not of every run.
        std::function<void(Run&&)> consume;
        // Called once when the walk has found every run root, with them sorted
        // (the order of Outcome::runs) and before every run is loaded: a consumer
        // can hand its runs on in that order as soon as each one's turn comes.
        std::function<void(const std::vector<std::string>&)> rootsFound;
    };

    // `dir` may also name one of several runs sharing a folder (Layout::runRoots):
    // that run alone is loaded.
    // `onRun` (optional) receives each run as soon as it is loaded, from a worker
    // thread but never concurrently, so a UI can show the first runs before the
    // scan ends. The returned runs are sorted by root. Errors: the folder does
    // not exist or cannot be read, or cancelled. Problems inside runs are not
    // errors; unreadable subfolders become problems of the nearest run or are
    // listed in `walkProblems`.
    struct Outcome
    {
        std::vector<Run> runs;
        Problems walkProblems;
    };
    static Result<Outcome> scan(const std::filesystem::path& dir, const Options& options,
                                const Progress& progress = Progress::none(),
                                const std::function<void(const Run&)>& onRun = {});
    static Result<Outcome> scan(const std::filesystem::path& dir) { return scan(dir, Options{}); }
};

} // namespace ckpt
