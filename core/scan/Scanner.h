#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "model/Run.h"

#include <filesystem>
#include <functional>
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
