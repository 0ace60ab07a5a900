#include "launch/LaunchSweep.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace ckpt {

std::string LaunchSweep::folderSuffix(const ParamEdit& value)
{
    // Letters, digits, '.', '-', '+' as they are; others become '_'.
    std::string out = value.key + "-";
    for (char c : value.value.pythonLiteral())
        out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '+')
                   ? c
                   : '_';
    return out;
}

Result<std::vector<PreparedLaunch>> LaunchSweep::prepare(const PrepRequest& base,
                                                         const std::vector<ParamEdit>& values,
                                                         const LaunchRegistry& registry,
                                                         const Progress& progress)
{
    if (values.empty())
        return Error::at(base.runRoot.string(), "a sweep needs at least one value");
    std::vector<PreparedLaunch> runs;
    std::set<std::string> folders;
    for (const ParamEdit& value : values) {
        if (progress.cancelled())
            return Error::at(base.runRoot.string(), "cancelled");
        PrepRequest r = base;
        r.mode = LaunchPlan::Mode::Fork;
        r.forkFolder.clear();
        r.edits.erase(std::remove_if(r.edits.begin(), r.edits.end(),
                                     [&](const ParamEdit& e) { return e.key == value.key; }),
                      r.edits.end());
        r.edits.push_back(value);
        r.forkSuffix = folderSuffix(value);
        auto prepared = LaunchPrep::prepare(r, registry, progress);
        if (!prepared)
            return Error{value.key + "=" + value.value.pythonLiteral() + ": " +
                             prepared.error().message,
                         prepared.error().path};
        if (!folders.insert(prepared->runFolder.string()).second)
            return Error::at(prepared->runFolder.string(),
                             "two values of the sweep would share this fork folder (" + value.key +
                                 "=" + value.value.pythonLiteral() + " given twice?)");
        // One array on Slurm: named for the sweep, not for its first fork.
        if (prepared->plan.slurm.jobName.empty())
            prepared->plan.slurm.jobName =
                LaunchPrep::runFolderOf(prepared->parentRoot).filename().string() + "-sweep-e" +
                std::to_string(base.fromEpoch) + "-" + value.key;
        runs.push_back(std::move(*prepared));
    }
    return runs;
}

Status LaunchSweep::apply(std::vector<PreparedLaunch>& runs)
{
    for (std::size_t i = 0; i < runs.size(); ++i) {
        if (Status st = LaunchPrep::apply(runs[i]); !st) {
            for (std::size_t j = 0; j < i; ++j)
                (void)LaunchPrep::undo(runs[j]);
            return Error{st.error().message + " (no fork of the sweep was made)", st.error().path};
        }
    }
    return {};
}

Status LaunchSweep::undo(const std::vector<PreparedLaunch>& runs)
{
    Status first;
    for (const PreparedLaunch& p : runs)
        if (Status st = LaunchPrep::undo(p); !st && first)
            first = st;
    return first;
}

Result<std::vector<LaunchRecord>> LaunchSweep::submitArray(std::vector<PreparedLaunch>& runs,
                                                           int parallel, const Launcher& launcher)
{
    std::vector<LaunchPlan> plans;
    for (const PreparedLaunch& p : runs)
        plans.push_back(p.plan);
    auto records = launcher.launchArray(plans, parallel);
    if (!records) {
        const Status undone = undo(runs);
        return Error{records.error().message + (undone ? " (the sweep's forks were removed again)"
                                                       : " (and removing the forks failed: " +
                                                             undone.error().message + ")"),
                     records.error().path};
    }
    return records;
}

SweepQueue::SweepQueue(std::vector<PreparedLaunch> runs, int parallel, Launcher launcher)
    : m_parallel(std::max(1, parallel)), m_launcher(std::move(launcher))
{
    for (auto& p : runs)
        m_items.push_back(Item{std::move(p), std::nullopt, {}, false, false});
}

void SweepQueue::start(Item& item)
{
    item.started = true;
    auto record = m_launcher.launch(item.prepared.plan);
    if (record) {
        item.record = std::move(*record);
        m_messages.push_back("started " + item.prepared.plan.runRoot);
        return;
    }
    // Nothing ran: the fork goes again, so no run without a trainer is left.
    item.error = record.error().message;
    item.finished = true;
    const Status undone = LaunchPrep::undo(item.prepared);
    m_messages.push_back(
        item.prepared.plan.runRoot + ": not started: " + item.error +
        (undone ? " (the fork was removed)"
                : " (the fork could not be removed: " + undone.error().message + ")"));
}

bool SweepQueue::step()
{
    int running = 0;
    for (Item& item : m_items) {
        if (!item.started || item.finished)
            continue;
        if (auto now = Launcher::refresh(item.prepared.plan.runRoot)) {
            item.record = std::move(*now);
            if (isFinished(item.record->state())) {
                item.finished = true;
                m_messages.push_back(item.prepared.plan.runRoot + ": " +
                                     runStateName(item.record->state()));
                continue;
            }
        }
        ++running;
    }
    for (Item& item : m_items) {
        if (running >= m_parallel)
            break;
        if (item.started)
            continue;
        start(item);
        if (!item.finished)
            ++running;
    }
    return done();
}

void SweepQueue::startAll()
{
    for (Item& item : m_items)
        if (!item.started)
            start(item);
}

bool SweepQueue::done() const
{
    return std::all_of(m_items.begin(), m_items.end(),
                       [](const Item& i) { return i.started && i.finished; });
}

bool SweepQueue::allCompleted() const
{
    return std::all_of(m_items.begin(), m_items.end(), [](const Item& i) {
        return i.record && i.error.empty() && i.record->state() == RunState::Completed;
    });
}

int SweepQueue::abandonQueued()
{
    int n = 0;
    for (Item& item : m_items) {
        if (item.started)
            continue;
        item.started = item.finished = true;
        item.error = "not started: the queue was abandoned";
        (void)LaunchPrep::undo(item.prepared);
        ++n;
    }
    return n;
}

std::vector<std::string> SweepQueue::takeMessages()
{
    return std::exchange(m_messages, {});
}

} // namespace ckpt
