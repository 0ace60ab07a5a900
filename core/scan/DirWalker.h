#pragma once

#include "common/Progress.h"
#include "layout/Layout.h"
#include "model/Problem.h"

#include <functional>
#include <string>
#include <vector>

namespace ckpt {

// The discovery walk: readdir-based, depth-first, never following symlinked
// directories (so no loops and never out of the dropped folder) and never
// descending into the parts of a run its layout owns (epochs/, work/).
class DirWalker
{
public:
    struct Root
    {
        std::string path;
        const Layout* layout = nullptr;
    };
    using RootCallback = std::function<void(Root)>;

    DirWalker(const std::vector<const Layout*>& layouts, int maxDepth, const Progress& progress);

    // Walks below the absolute directory `top`, whose listing the caller already
    // read, calling `onRoot` for each run root in sorted path order. Returns
    // false when cancelled.
    bool walk(DirListing top, const RootCallback& onRoot);

    // The layout claiming `listing`, if any.
    const Layout* claim(const DirListing& listing) const;

    const Problems& problems() const { return m_problems; }
    std::size_t directoriesVisited() const { return m_visited; }

private:
    const std::vector<const Layout*>& m_layouts;
    int m_maxDepth;
    const Progress& m_progress;
    Problems m_problems;
    std::size_t m_visited = 0;
};

} // namespace ckpt
