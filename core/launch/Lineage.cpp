#include "launch/Lineage.h"

#include <algorithm>
#include <deque>
#include <set>

namespace ckpt {

Result<std::vector<LineageEdge>> Lineage::edges(const LaunchRegistry& registry)
{
    auto launched = registry.launched();
    if (!launched)
        return launched.error();
    std::vector<LaunchRecord> records;
    for (const auto& entry : *launched) {
        auto record = LaunchRecord::load(LaunchRecord::pathFor(entry.runRoot));
        if (record) // else moved or deleted since: `ckpt runs` says so
            records.push_back(std::move(record.value()));
    }
    std::vector<const LaunchRecord*> pointers;
    for (const LaunchRecord& r : records)
        pointers.push_back(&r);
    return edgesFrom(pointers);
}

std::vector<LineageEdge> Lineage::edgesFrom(const std::vector<const LaunchRecord*>& records)
{
    std::vector<LineageEdge> out;
    for (const LaunchRecord* record : records) {
        for (const LaunchAttempt& a : record->attempts) {
            if (!a.plan.parent)
                continue;
            out.push_back(LineageEdge{a.plan.parent->runRoot, a.plan.parent->epoch, record->runRoot,
                                      a.plan.mode, a.plan.parent->changes, a.submitted, a.state});
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const LineageEdge& x, const LineageEdge& y) {
        return x.submitted < y.submitted;
    });
    return out;
}

Lineage::Family Lineage::familyOf(const std::vector<LineageEdge>& edges, const std::string& root)
{
    Family family;
    // Ancestors: follow the fork edges into `root` upwards.
    std::set<std::string> seen{root};
    std::string at = root;
    for (;;) {
        auto into = std::find_if(edges.rbegin(), edges.rend(), [&](const LineageEdge& e) {
            return e.childRoot == at && e.parentRoot != at;
        });
        if (into == edges.rend() || !seen.insert(into->parentRoot).second)
            break;
        family.ancestors.insert(family.ancestors.begin(), *into);
        at = into->parentRoot;
    }
    // Descendants: every edge out of `root` (its own restarts included), then theirs.
    std::deque<std::string> queue{root};
    std::set<std::string> visited{root};
    while (!queue.empty()) {
        const std::string parent = queue.front();
        queue.pop_front();
        for (const LineageEdge& e : edges) {
            if (e.parentRoot != parent)
                continue;
            family.descendants.push_back(e);
            if (visited.insert(e.childRoot).second)
                queue.push_back(e.childRoot);
        }
    }
    return family;
}

std::map<int, std::vector<std::string>> Lineage::forkPins(const std::string& root,
                                                          const LaunchRegistry& registry)
{
    std::map<int, std::vector<std::string>> pins;
    auto all = edges(registry);
    if (!all)
        return pins;
    for (const LineageEdge& e : *all)
        if (e.mode == LaunchPlan::Mode::Fork && e.parentRoot == root && e.childRoot != root)
            pins[e.epoch].push_back("forked into " + e.childRoot);
    return pins;
}

} // namespace ckpt
