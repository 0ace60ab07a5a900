#include "scan/DirWalker.h"

#include "io/AtomicFile.h"
#include "layout/DirReader.h"

#include <algorithm>
#include <cstring>

namespace ckpt {

DirWalker::DirWalker(const std::vector<const Layout*>& layouts, int maxDepth,
                     const Progress& progress)
    : m_layouts(layouts), m_maxDepth(maxDepth), m_progress(progress)
{}

const Layout* DirWalker::claim(const DirListing& listing) const
{
    for (const Layout* layout : m_layouts)
        if (layout->isRunRoot(listing))
            return layout;
    return nullptr;
}

bool DirWalker::walk(DirListing top, const RootCallback& onRoot)
{
    struct Pending
    {
        std::string path;
        int depth;
    };
    std::vector<Pending> stack;
    DirListing listing = std::move(top);
    int depth = 0;
    std::vector<std::string> subdirs;
    for (;;) {
        if (m_progress.cancelled())
            return false;
        ++m_visited;
        const std::string dir = listing.dir.string();
        const Layout* owner = claim(listing);
        if (owner)
            for (std::string& root : owner->runRoots(listing))
                onRoot(Root{std::move(root), owner});
        if (depth < m_maxDepth) {
            subdirs.clear();
            for (const DirEntry& e : listing.entries) {
                // Symlinked directories are skipped on purpose: following them
                // could loop or leave the folder the user chose.
                if (e.type != DirEntry::Type::Directory)
                    continue;
                if (owner && owner->ownsSubdirectory(e.name))
                    continue;
                if (isMadeAsideName(e.name)) // a fork being made, or a killed one's leftover
                    continue;
                subdirs.push_back(e.name);
            }
            // Reverse order on the stack pops them ascending: roots come out sorted.
            std::sort(subdirs.begin(), subdirs.end(), std::greater<>());
            const std::string prefix = dir == "/" ? dir : dir + "/";
            for (auto& name : subdirs)
                stack.push_back(Pending{prefix + name, depth + 1});
        }
        for (;;) {
            if (stack.empty())
                return true;
            Pending next = std::move(stack.back());
            stack.pop_back();
            listing.dir = next.path;
            if (const int err = DirReader::list(next.path.c_str(), listing.entries)) {
                m_problems.push_back(Problem{ProblemKind::Unreadable,
                                             "cannot list " + osError(next.path, err) +
                                                 ": runs below it were not scanned; check its "
                                                 "permissions.",
                                             next.path, std::nullopt});
                continue;
            }
            depth = next.depth;
            break;
        }
    }
}

} // namespace ckpt
