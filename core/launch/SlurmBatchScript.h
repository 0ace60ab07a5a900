#pragma once

#include "launch/LaunchPlan.h"
#include "launch/LaunchRecord.h"

#include <string>
#include <vector>

namespace ckpt {

// The sbatch script for a launch attempt, shown to the user before submission.
// Preemption-safe the standard way: --requeue, --open-mode=append and
// --signal=B:USR1@<grace>; the batch shell starts the trainer in the
// background and waits (bash runs traps only between commands), and its USR1
// trap waits for the run's `last` link to move (the epoch in progress is
// saved) or the grace to run out, stops the trainer and requeues the job. A
// job that runs again (SLURM_RESTART_COUNT > 0) gets the plan's requeue
// arguments (--ckpt_restart_mode auto) so the trainer resumes from `last`.
// Every start and exit is appended to the attempt's events file.
class SlurmBatchScript
{
public:
    static std::string render(const LaunchPlan& plan, const LaunchAttempt& attempt);

    // One job array for a sweep (fan-out): task i runs plans[i] in its own
    // run folder, its output appended to attempts[i]'s log and its events to
    // attempts[i]'s events file, with the same preemption safety as a single
    // job (each task is requeued on its own). The #SBATCH options are the
    // first plan's; `parallel` > 0 caps the tasks running at once (%K).
    // Slurm's own messages for task i go to `slurmOutput` (%A_%a expanded).
    static std::string renderArray(const std::vector<LaunchPlan>& plans,
                                   const std::vector<LaunchAttempt>& attempts, int parallel,
                                   const std::string& slurmOutput);

    // An #SBATCH value, double-quoted when it holds spaces or quotes.
    static std::string sbatchValue(const std::string& value);
};

} // namespace ckpt
