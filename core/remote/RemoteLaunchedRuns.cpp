#include "remote/RemoteLaunchedRuns.h"

#include <algorithm>
#include <set>

namespace ckpt {

Launcher::Listed RemoteLaunchedRuns::listed(const RemoteLaunchedRun& r, const std::string& prefix)
{
    Launcher::Listed out;
    out.entry.runRoot = prefix + r.run;
    out.entry.name = r.name;
    out.error = r.error;
    out.gone = r.state == "gone";
    const auto state = runStateFromName(r.state);
    if (!state)
        return out; // gone, or its record unreadable there
    LaunchAttempt a;
    a.plan.runRoot = out.entry.runRoot;
    a.plan.mode = LaunchPlan::modeFromName(r.mode).value_or(LaunchPlan::Mode::New);
    a.plan.backend = LaunchPlan::backendFromName(r.backend).value_or(LaunchPlan::Backend::Local);
    if (r.parentRun) {
        LaunchParent parent;
        parent.runRoot = prefix + *r.parentRun;
        parent.epoch = r.parentEpoch.value_or(0);
        a.plan.parent = std::move(parent);
    }
    a.jobId = r.jobId.value_or(std::string());
    a.slurmState = r.slurmState.value_or(std::string());
    a.logPath = r.log;
    a.state = *state;
    a.submitted = r.started;
    a.ended = r.ended;
    LaunchSegment segment;
    segment.pid = r.pids.empty() ? 0 : r.pids.back();
    segment.started = r.started;
    segment.ended = r.ended;
    segment.state = *state;
    if (!r.started.empty() || segment.pid)
        a.segments.push_back(std::move(segment));
    LaunchRecord record;
    record.runRoot = out.entry.runRoot;
    record.name = r.name;
    record.attempts.push_back(std::move(a));
    out.record = std::move(record);
    return out;
}

LineageEdge RemoteLaunchedRuns::edge(const RemoteLineageEdge& e, const std::string& prefix)
{
    LineageEdge out;
    out.parentRoot = prefix + e.parent;
    out.epoch = e.epoch;
    out.childRoot = prefix + e.child;
    out.mode = LaunchPlan::modeFromName(e.mode).value_or(LaunchPlan::Mode::Fork);
    for (const auto& c : e.changes)
        out.changes.push_back({c.key, c.from.value_or(std::string()), c.to});
    out.submitted = e.submitted;
    out.state = runStateFromName(e.state).value_or(RunState::Lost);
    return out;
}

RemoteLaunchedRuns::Result RemoteLaunchedRuns::collect(const Source& source, const Result* previous,
                                                       const Progress& progress)
{
    Result out;
    out.folder = source.folder;
    if (!source.reachable) {
        out.error = "not connected to " + source.client.target().display() +
                    ": its launched runs are shown as last known";
        if (previous) {
            out.runs = previous->runs;
            out.edges = previous->edges;
            out.lineageKey = previous->lineageKey;
        }
        return out;
    }
    auto far = source.client.runs(source.client.target().path, progress);
    if (!far) {
        out.error = far.error().message;
        if (previous) { // shown as last known until the host answers again
            out.runs = previous->runs;
            out.edges = previous->edges;
            out.lineageKey = previous->lineageKey;
        }
        return out;
    }
    for (const RemoteLaunchedRun& r : *far) {
        out.runs.push_back(listed(r, source.prefix));
        out.lineageKey += r.run + '=' + r.state + '@' + r.started + ';';
    }
    if (previous && previous->lineageKey == out.lineageKey && previous->error.empty()) {
        out.edges = previous->edges;
    } else {
        // One `ckpt lineage` answers for a run's ancestors and descendants:
        // only runs no answer has named yet are asked.
        std::set<std::string> covered;
        std::set<std::string> seen;
        for (const RemoteLaunchedRun& r : *far) {
            if (progress.cancelled())
                break;
            if (covered.count(r.run) || !runStateFromName(r.state))
                continue;
            covered.insert(r.run);
            auto tree = source.client.lineage(r.run, progress);
            if (!tree)
                continue; // its record unreadable there: no edges for it
            for (const auto* list : {&tree->ancestors, &tree->descendants})
                for (const RemoteLineageEdge& e : *list) {
                    covered.insert(e.parent);
                    covered.insert(e.child);
                    const std::string key =
                        e.parent + '>' + e.child + '@' + std::to_string(e.epoch) + e.submitted;
                    if (seen.insert(key).second)
                        out.edges.push_back(edge(e, source.prefix));
                }
        }
        std::sort(
            out.edges.begin(), out.edges.end(),
            [](const LineageEdge& a, const LineageEdge& b) { return a.submitted < b.submitted; });
    }
    // The fork's changes on its row too (its tooltip), as a local record has them.
    for (Launcher::Listed& run : out.runs) {
        LaunchAttempt* a = run.record ? run.record->latest() : nullptr;
        if (!a || !a->plan.parent)
            continue;
        for (const LineageEdge& e : out.edges)
            if (e.childRoot == run.entry.runRoot && e.epoch == a->plan.parent->epoch)
                a->plan.parent->changes = e.changes;
    }
    return out;
}

} // namespace ckpt
