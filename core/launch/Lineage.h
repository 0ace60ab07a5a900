#pragma once

#include "common/Result.h"
#include "launch/LaunchPlan.h"
#include "launch/LaunchRecord.h"
#include "launch/LaunchRegistry.h"

#include <map>
#include <string>
#include <vector>

namespace ckpt {

// One launch from an epoch: a restart (child == parent) or a fork.
struct LineageEdge
{
    std::string parentRoot;
    int epoch = 0;
    std::string childRoot;
    LaunchPlan::Mode mode = LaunchPlan::Mode::Restart;
    std::vector<LaunchParent::Change> changes;
    std::string submitted; // ISO 8601 UTC
    RunState state = RunState::Pending;
};

// The family tree of runs, from the records of the runs Ckpt Studio launched
// (listed in the registry): who was restarted or forked from which epoch of
// which run, with what changes. Records are read as they are (not refreshed).
class Lineage
{
public:
    static Result<std::vector<LineageEdge>> edges(const LaunchRegistry& registry);
    // The same from records already read (the Experiments panel's refreshed
    // ones), oldest launch first.
    static std::vector<LineageEdge> edgesFrom(const std::vector<const LaunchRecord*>& records);
    // The edges that lead to `root` (its ancestors, oldest first) and those
    // below it (its restarts and descendants, breadth first).
    struct Family
    {
        std::vector<LineageEdge> ancestors;
        std::vector<LineageEdge> descendants;
    };
    static Family familyOf(const std::vector<LineageEdge>& edges, const std::string& root);
    // Epochs of `root` that other runs were forked from, with the reason a
    // prune keeps them ("forked into /path/RUN-fork-e006/ckpts").
    static std::map<int, std::vector<std::string>>
    forkPins(const std::string& root, const LaunchRegistry& registry = LaunchRegistry());
};

} // namespace ckpt
