#pragma once

#include "launch/LaunchRecord.h"
#include "launch/Lineage.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// The family tree laid out for drawing, left to right by generation: one node
// per generation of a run (a restart in place makes a new generation of the
// same run; the one before it is superseded after the restart epoch), one
// link per launch from an epoch. Rows keep a run's generations on one line
// and give every fork a line of its own below its parent's.
struct LineageGraph
{
    struct RunInfo
    {
        std::string root;
        std::string name;
        std::optional<RunState> state; // none: the registry has no state for it
    };
    struct Node
    {
        std::string root;
        std::string name;
        int generation = 0; // 0 for the run as first trained or forked
        int column = 0;
        int row = 0;
        std::optional<RunState> state;      // the latest generation's only
        std::optional<int> supersededAfter; // a later restart moved the epochs after this aside
    };
    struct Link
    {
        int from = 0; // node indices
        int to = 0;
        int epoch = 0;
        LaunchPlan::Mode mode = LaunchPlan::Mode::Fork;
        std::string label;   // "e6: learning_rate 0.01 -> 0.001"
        std::string changes; // "" when nothing changed
    };

    std::vector<Node> nodes;
    std::vector<Link> links;
    int columns = 0;
    int rows = 0;

    // `runs` in the order listed; runs named only by edges (a parent that
    // Ckpt Studio did not launch) are added with no state, named by `nameOf`
    // (RunBranches::displayName when not given).
    static LineageGraph build(const std::vector<LineageEdge>& edges,
                              const std::vector<RunInfo>& runs,
                              const std::function<std::string(const std::string&)>& nameOf = {});
    int nodeOf(const std::string& root, int generation) const;
};

} // namespace ckpt
