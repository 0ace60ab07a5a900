#include "launch/LaunchEvents.h"

#include "io/AtomicFile.h"

#include <nlohmann/json.hpp>

namespace ckpt {

std::vector<LaunchEvents::Event> LaunchEvents::read(const std::filesystem::path& path)
{
    std::vector<Event> events;
    auto text = readFile(path);
    if (!text)
        return events;
    std::size_t start = 0;
    while (start < text->size()) {
        std::size_t end = text->find('\n', start);
        if (end == std::string::npos)
            break; // a line still being written
        const std::string line = text->substr(start, end - start);
        start = end + 1;
        auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.is_object() || !j.contains("event"))
            continue;
        Event e;
        e.type = j.value("event", std::string());
        e.time = j.value("time", std::int64_t{0});
        e.pid = j.value("pid", std::int64_t{0});
        e.supervisor = j.value("supervisor", std::int64_t{0});
        e.host = j.value("host", std::string());
        e.restart = j.value("restart", 0);
        e.status = j.value("status", 0);
        if (const auto job = j.find("job"); job != j.end() && job->is_string())
            e.job = job->get<std::string>();
        events.push_back(std::move(e));
    }
    return events;
}

namespace {

void finish(LaunchSegment& seg, const LaunchEvents::Event& exit)
{
    seg.ended = isoFromUnix(exit.time);
    if (exit.status > 128) {
        seg.signal = exit.status - 128;
        seg.exitStatus = exit.status;
        seg.state = RunState::Stopped;
    } else {
        seg.exitStatus = exit.status;
        seg.state = exit.status == 0 ? RunState::Completed : RunState::Failed;
    }
}

} // namespace

std::string LaunchEvents::slurmJobId(const std::vector<Event>& events)
{
    for (auto it = events.rbegin(); it != events.rend(); ++it)
        if (it->type == "start" && !it->job.empty())
            return it->job;
    return {};
}

bool LaunchEvents::apply(const std::vector<Event>& events, LaunchAttempt& attempt)
{
    bool changed = false;
    LaunchSegment* current = nullptr;
    for (const Event& e : events) {
        if (e.type == "start") {
            // A segment followed by another start of the same job was requeued,
            // however its process ended (Slurm cancels it to requeue).
            if (current && current->state != RunState::Requeued && e.restart > current->restart) {
                current->state = RunState::Requeued;
                if (current->ended.empty())
                    current->ended = isoFromUnix(e.time);
                changed = true;
            }
            current = nullptr;
            for (LaunchSegment& s : attempt.segments)
                if (s.restart == e.restart)
                    current = &s;
            if (!current) {
                attempt.segments.push_back(LaunchSegment{});
                current = &attempt.segments.back();
                current->restart = e.restart;
                current->state = RunState::Running;
                changed = true;
            }
            if (e.supervisor && current->supervisorPid != e.supervisor) {
                current->supervisorPid = e.supervisor;
                changed = true;
            }
            if (current->pid != e.pid || current->host != e.host || current->started.empty()) {
                current->pid = e.pid;
                current->host = e.host;
                current->started = isoFromUnix(e.time);
                changed = true;
            }
        } else if (e.type == "exit" && current) {
            if (current->ended.empty() || !current->exitStatus) {
                finish(*current, e);
                changed = true;
            }
        } else if (e.type == "requeue" && current) {
            if (current->state != RunState::Requeued) {
                current->state = RunState::Requeued;
                changed = true;
            }
        }
    }
    return changed;
}

} // namespace ckpt
