#include "scan/Scanner.h"

#include "io/AtomicFile.h"
#include "layout/AbsolutePath.h"
#include "layout/DirReader.h"
#include "scan/DirWalker.h"
#include "scan/RunLoaderPool.h"

#include <algorithm>
#include <cerrno>
#include <sys/stat.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

// A folder dropped from inside a run (ckpts/epochs, ckpts/epochs/012,
// ckpts/work) stands for that run: find the enclosing run root, if any.
std::optional<DirWalker::Root> enclosingRun(const fs::path& dir, const DirWalker& walker)
{
    fs::path child = dir;
    fs::path ancestor = dir.parent_path();
    for (int up = 0; up < 2 && ancestor != child; ++up) {
        auto listing = DirReader::list(ancestor);
        if (listing) {
            if (const Layout* layout = walker.claim(*listing)) {
                const fs::path first = *dir.lexically_relative(ancestor).begin();
                if (layout->ownsSubdirectory(first.string()))
                    return DirWalker::Root{ancestor.string(), layout};
            }
        }
        child = ancestor;
        ancestor = ancestor.parent_path();
    }
    return std::nullopt;
}

Result<Scanner::Outcome> scanFolder(const fs::path& dir, const Scanner::Options& options,
                                    const Progress& progress,
                                    const std::function<void(const Run&)>& onRun)
{
    const std::string top = AbsolutePath::normal(dir);
    struct stat st = {};
    if (::stat(top.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
        // A run sharing its folder with others is named <folder>/<name>, no directory.
        if (const Layout* layout = layoutAt(top)) {
            Scanner::Outcome outcome;
            if (options.rootsFound)
                options.rootsFound({top});
            if (options.consume) {
                options.consume(layout->loadRun(top));
                return outcome;
            }
            outcome.runs.push_back(layout->loadRun(top));
            if (onRun)
                onRun(outcome.runs.back());
            return outcome;
        }
    }
    if (::stat(top.c_str(), &st) != 0)
        return Error{errno == ENOENT ? top + ": no such folder" : osError(top, errno), top};
    if (!S_ISDIR(st.st_mode))
        return Error{top + ": not a folder; drop the folder that holds the runs", top};
    auto listing = DirReader::list(fs::path(top));
    if (!listing)
        return Error{"cannot scan " + listing.error().message, top};

    DirWalker walker(builtinLayouts(), std::max(0, options.maxDepth), progress);
    RunLoaderPool pool(options.threads, progress, onRun, options.consume);
    const auto walked = [&] {
        if (options.rootsFound)
            options.rootsFound(pool.roots());
    };
    if (!walker.claim(*listing) && top != "/") {
        if (auto root = enclosingRun(fs::path(top), walker)) {
            pool.add(std::move(*root));
            walked();
            return pool.collect(walker.problems());
        }
    }
    const bool completed = walker.walk(std::move(listing.value()),
                                       [&](DirWalker::Root root) { pool.add(std::move(root)); });
    if (completed)
        walked();
    pool.finish();
    if (!completed || progress.cancelled())
        return Error{top + ": scan cancelled", top};
    return pool.collect(walker.problems());
}

} // namespace

Result<Scanner::Outcome> Scanner::scan(const fs::path& dir, const Options& options,
                                       const Progress& progress,
                                       const std::function<void(const Run&)>& onRun)
{
    try {
        return scanFolder(dir, options, progress, onRun);
    } catch (const std::exception& e) {
        // Nothing is thrown across the core boundary (out of memory, mostly).
        return Error{dir.string() + ": scan failed: " + e.what(), dir.string()};
    }
}

} // namespace ckpt
