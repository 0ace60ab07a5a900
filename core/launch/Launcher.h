#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "launch/LaunchPlan.h"
#include "launch/LaunchRecord.h"
#include "launch/LaunchRegistry.h"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// Starts launch plans on their backend and keeps their records: the one entry
// point the CLI and the app use. Plain synchronous calls (the Slurm ones run
// Slurm commands): call them off the GUI thread.
class Launcher
{
public:
    explicit Launcher(LaunchRegistry registry = LaunchRegistry());

    // Appends an attempt to the run's record (creating it), assigns its log,
    // events and script paths under <root>/.ckpt-studio/launch/, starts it,
    // saves the record and registers the run. A failed start is recorded as a
    // failed attempt only when something ran; otherwise nothing is written.
    Result<LaunchRecord> launch(const LaunchPlan& plan) const;

    // One Slurm job array for a sweep (fan-out): plans[i], each its own run,
    // becomes array task i with job id "<array id>_<i>", its own attempt, log,
    // events and record (a copy of the one script in each run's launch
    // folder). At most `parallel` tasks run at once (0: no cap). When sbatch
    // refuses, nothing is recorded. A single plan is submitted as a plain job.
    Result<std::vector<LaunchRecord>> launchArray(const std::vector<LaunchPlan>& plans,
                                                  int parallel) const;

    // The attempt launch() makes next for `plan`: its index (after the run's
    // recorded attempts) and its log, events and script paths. The dialog's
    // preview renders the batch script with it: the text sbatch will get.
    static LaunchAttempt nextAttempt(const LaunchPlan& plan);
    // The batch script launch() or launchArray() submits for these plans.
    static std::string batchScript(const std::vector<LaunchPlan>& plans, int parallel);

    // Loads the run's record and brings its unfinished attempts up to date
    // (events, /proc, Slurm), saving it when anything changed.
    static Result<LaunchRecord> refresh(const std::filesystem::path& runRoot);

    // Stops the latest attempt: SIGTERM, SIGKILL after `grace` (local), or
    // scancel (Slurm, then up to max(grace, 5 s) for the job to end).
    // Returns the refreshed record.
    static Result<LaunchRecord> stop(const std::filesystem::path& runRoot,
                                     std::chrono::milliseconds grace,
                                     const Progress& progress = Progress::none());

    struct Listed
    {
        LaunchRegistry::Launched entry;
        std::optional<LaunchRecord> record;
        std::string error; // why the record could not be read or refreshed
        bool gone = false; // no record because the run's folder no longer exists
    };
    // Every registered run, refreshed; `under` keeps only runs below a folder.
    Result<std::vector<Listed>> runs(const std::filesystem::path& under = {},
                                     const Progress& progress = Progress::none()) const;

    const LaunchRegistry& registry() const { return m_registry; }

private:
    LaunchRegistry m_registry;
};

} // namespace ckpt
