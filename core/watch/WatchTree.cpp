#include "watch/WatchTree.h"

#include "layout/AbsolutePath.h"
#include "watch/DirSnapshot.h"

namespace ckpt {

namespace {

void walkInto(const std::filesystem::path& dir, int depth, int maxDepth, WatchTree::Outcome& out)
{
    auto entries = DirSnapshot::read(dir);
    if (!entries)
        return; // unreadable or gone: discovery reports it, the watcher just skips it
    const DirListing listing = DirSnapshot::toListing(dir, *entries);
    const Layout* layout = WatchTree::layoutOf(listing);
    const auto roots = layout ? layout->runRoots(listing) : std::vector<std::string>{};
    // A folder shared by several runs is watched as a walked directory: a change
    // there may concern any of them, or start a new one.
    if (roots.size() != 1 || roots.front() != dir.string())
        out.dirs.push_back(dir.string());
    for (const auto& root : roots)
        out.runs.push_back({root, layout});
    if (depth >= maxDepth)
        return;
    for (const auto& e : *entries) {
        if (e.type != DirEntry::Type::Directory)
            continue;
        if (layout && layout->ownsSubdirectory(e.name))
            continue;
        walkInto(dir / e.name, depth + 1, maxDepth, out);
    }
}

} // namespace

WatchTree::Outcome WatchTree::walk(const std::filesystem::path& dir, int maxDepth)
{
    Outcome out;
    walkInto(AbsolutePath::normal(dir), 0, maxDepth, out);
    return out;
}

const Layout* WatchTree::layoutOf(const DirListing& listing)
{
    for (const Layout* layout : builtinLayouts()) {
        if (layout->isRunRoot(listing))
            return layout;
    }
    return nullptr;
}

bool WatchTree::isSoleRun(const Layout& layout, const DirListing& listing)
{
    if (!layout.isRunRoot(listing))
        return false;
    const auto roots = layout.runRoots(listing);
    return roots.size() == 1 && roots.front() == listing.dir.string();
}

std::string WatchTree::parentOf(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos || slash == 0 ? std::string("/") : path.substr(0, slash);
}

std::string WatchTree::nameOf(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool WatchTree::within(const std::string& path, const std::string& dir)
{
    return path == dir || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 &&
                           path[dir.size()] == '/');
}

} // namespace ckpt
