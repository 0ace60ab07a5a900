#pragma once

#include "common/Result.h"
#include "launch/LaunchPlan.h"

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// What a run's process (or Slurm job) is doing, as far as we can tell.
enum class RunState
{
    Pending,   // submitted, not started (Slurm queue, requeue hold)
    Running,   // the trainer process is alive
    Completed, // exited with status 0
    Failed,    // exited with another status (or Slurm FAILED, TIMEOUT, ...)
    Stopped,   // killed by a signal or cancelled
    Requeued,  // a Slurm segment ended by a requeue; the job runs again
    Lost       // gone without leaving an exit status (host rebooted, wrapper killed)
};

const char* runStateName(RunState state);
std::optional<RunState> runStateFromName(const std::string& name);
bool isFinished(RunState state);

// One stretch of execution: a local process, or one start of a Slurm job
// (a requeued job gets a new segment under the same launch and job id).
struct LaunchSegment
{
    int restart = 0; // SLURM_RESTART_COUNT of this start; 0 locally
    std::int64_t pid = 0;
    std::uint64_t pidStartTime = 0; // /proc/<pid>/stat starttime, to tell a reused pid
    std::int64_t supervisorPid = 0; // the shell that waits for the trainer
    std::string host;
    std::string started; // ISO 8601 UTC
    std::string ended;
    std::optional<int> exitStatus;
    std::optional<int> signal; // the trainer died of this signal
    RunState state = RunState::Running;
};

// One submission of the run: the plan as executed and what became of it.
struct LaunchAttempt
{
    int index = 1; // 1-based, in the order launched
    LaunchPlan plan;
    std::string submitted;  // ISO 8601 UTC
    std::string jobId;      // Slurm job id ("" locally)
    std::string slurmState; // the last state Slurm reported (COMPLETED, CANCELLED, ...)
    std::string logPath;
    std::string eventsPath; // JSON lines written by the wrapper / batch script
    std::string scriptPath; // the batch script (Slurm)
    std::vector<LaunchSegment> segments;
    RunState state = RunState::Pending;
    std::string ended;

    std::vector<std::int64_t> pids() const;
};

// The record of a run launched by Ckpt Studio: <root>/.ckpt-studio/launch/record.json.
// Later restarts of the same run append attempts; nothing is ever dropped.
struct LaunchRecord
{
    static constexpr int kVersion = 1;
    std::string runRoot;
    std::string name;
    std::vector<LaunchAttempt> attempts;

    const LaunchAttempt* latest() const { return attempts.empty() ? nullptr : &attempts.back(); }
    LaunchAttempt* latest() { return attempts.empty() ? nullptr : &attempts.back(); }
    RunState state() const { return attempts.empty() ? RunState::Pending : attempts.back().state; }

    static std::filesystem::path launchDir(const std::filesystem::path& runRoot);
    static std::filesystem::path pathFor(const std::filesystem::path& runRoot);

    nlohmann::ordered_json toJson() const;
    static Result<LaunchRecord> fromJson(const nlohmann::ordered_json& json,
                                         const std::string& origin);

    static Result<LaunchRecord> load(const std::filesystem::path& path);
    // Written aside and renamed over pathFor(runRoot).
    Status save() const;
};

// Current UTC time as ISO 8601 ("2026-11-23T11:40:02Z"), and from Unix seconds.
std::string isoNow();
std::string isoFromUnix(std::int64_t seconds);

} // namespace ckpt
