#include "launch/LineageGraph.h"

#include "launch/RunBranches.h"
#include "launch/RunSummary.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace ckpt {

int LineageGraph::nodeOf(const std::string& root, int generation) const
{
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i].root == root && nodes[i].generation == generation)
            return int(i);
    return -1;
}

LineageGraph LineageGraph::build(const std::vector<LineageEdge>& edges,
                                 const std::vector<RunInfo>& runs,
                                 const std::function<std::string(const std::string&)>& nameOf)
{
    LineageGraph g;
    // Every run once, in order: those listed, then those only edges name.
    std::vector<RunInfo> all = runs;
    std::set<std::string> known;
    for (const RunInfo& r : runs)
        known.insert(r.root);
    for (const LineageEdge& e : edges)
        for (const std::string& root : {e.parentRoot, e.childRoot})
            if (known.insert(root).second)
                all.push_back(
                    {root, nameOf ? nameOf(root) : RunBranches::displayName(root), std::nullopt});

    // Restarts of each run, oldest first (edges are sorted by submission).
    std::map<std::string, std::vector<const LineageEdge*>> restarts;
    for (const LineageEdge& e : edges)
        if (e.mode == LaunchPlan::Mode::Restart && e.parentRoot == e.childRoot)
            restarts[e.childRoot].push_back(&e);
    for (const RunInfo& r : all) {
        const auto& rs = restarts[r.root];
        const int generations = int(rs.size()) + 1;
        for (int gen = 0; gen < generations; ++gen) {
            Node n{
                r.root, r.name.empty() ? RunBranches::displayName(r.root) : r.name, gen, 0, 0, {},
                {}};
            if (gen + 1 < generations)
                n.supersededAfter = rs[std::size_t(gen)]->epoch;
            else
                n.state = r.state   ? r.state
                          : gen > 0 ? std::optional<RunState>(rs.back()->state)
                                    : std::nullopt;
            g.nodes.push_back(std::move(n));
        }
    }
    const auto label = [](const LineageEdge& e, std::string& changes) {
        changes = RunSummary::changes(e.changes);
        std::string text = "e";
        text += std::to_string(e.epoch);
        text += ": ";
        text += changes.empty() ? std::string_view("no parameter changed") : changes;
        return text;
    };
    for (const LineageEdge& e : edges) {
        Link link;
        link.epoch = e.epoch;
        link.mode = e.mode;
        link.label = label(e, link.changes);
        if (e.mode == LaunchPlan::Mode::Restart && e.parentRoot == e.childRoot) {
            const auto& rs = restarts[e.childRoot];
            const int gen = int(std::find(rs.begin(), rs.end(), &e) - rs.begin()) + 1;
            link.from = g.nodeOf(e.childRoot, gen - 1);
            link.to = g.nodeOf(e.childRoot, gen);
        } else {
            // From the parent's generation that was current when the fork was made.
            const auto& rs = restarts[e.parentRoot];
            const int gen = int(std::count_if(rs.begin(), rs.end(), [&](const LineageEdge* r) {
                return r->submitted < e.submitted;
            }));
            link.from = g.nodeOf(e.parentRoot, gen);
            link.to = g.nodeOf(e.childRoot, 0);
        }
        if (link.from >= 0 && link.to >= 0 && link.from != link.to)
            g.links.push_back(std::move(link));
    }

    // Left to right by depth; a restart continues its run's row, every fork
    // opens a row below (after its parent's restarts and their forks).
    std::vector<std::vector<int>> children(g.nodes.size());
    std::vector<bool> hasParent(g.nodes.size(), false);
    for (std::size_t i = 0; i < g.links.size(); ++i) {
        const Link& l = g.links[i];
        if (hasParent[std::size_t(l.to)])
            continue;
        hasParent[std::size_t(l.to)] = true;
        children[std::size_t(l.from)].push_back(int(i));
    }
    for (auto& c : children)
        std::stable_sort(c.begin(), c.end(), [&](int a, int b) {
            return g.links[std::size_t(a)].mode == LaunchPlan::Mode::Restart &&
                   g.links[std::size_t(b)].mode != LaunchPlan::Mode::Restart;
        });
    std::vector<bool> placed(g.nodes.size(), false);
    int used = 0;
    std::function<void(int, int, int)> place = [&](int node, int column, int row) {
        if (placed[std::size_t(node)])
            return;
        placed[std::size_t(node)] = true;
        Node& n = g.nodes[std::size_t(node)];
        n.column = column;
        n.row = row;
        used = std::max(used, row + 1);
        g.columns = std::max(g.columns, column + 1);
        for (int li : children[std::size_t(node)]) {
            const Link& l = g.links[std::size_t(li)];
            place(l.to, column + 1, l.mode == LaunchPlan::Mode::Restart ? row : used);
        }
    };
    for (std::size_t i = 0; i < g.nodes.size(); ++i)
        if (!hasParent[i])
            place(int(i), 0, used);
    for (std::size_t i = 0; i < g.nodes.size(); ++i) // cycles (a corrupt record): still shown
        if (!placed[i])
            place(int(i), 0, used);
    g.rows = used;
    return g;
}

} // namespace ckpt
