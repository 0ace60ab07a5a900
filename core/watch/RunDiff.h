#pragma once

#include "model/Run.h"

#include <optional>
#include <vector>

namespace ckpt {

// What changed between two loads of the same run, as the watcher reports it.
struct RunChanges
{
    std::vector<Epoch> added;
    std::vector<int> removed;
    std::vector<Epoch> changed;
    std::vector<RunLink> links;         // changed links; a removed one has no path and no epoch
    std::optional<bool> saveInProgress; // set when work/ appeared or went away

    bool empty() const
    {
        return added.empty() && removed.empty() && changed.empty() && links.empty() &&
               !saveInProgress;
    }
};

class RunDiff
{
public:
    static RunChanges diff(const Run& before, const Run& after);
    static bool sameEpoch(const Epoch& a, const Epoch& b);
    static bool sameLink(const std::optional<RunLink>& a, const std::optional<RunLink>& b);
    static bool sameProblems(const Problems& a, const Problems& b);
    // The run-level part of a run (links, sources, in-progress saves, problems): no epochs.
    static Run headOf(const Run& run);
    static bool sameHead(const Run& a, const Run& b);
    // The link as reported when it disappeared: name only.
    static RunLink removedLink(const std::string& name);
    // Links that appeared, changed or went away (as removedLink) between two loads.
    static std::vector<RunLink> changedLinks(const Run& before, const Run& after);
};

} // namespace ckpt
