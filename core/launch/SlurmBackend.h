#pragma once

#include "common/Result.h"
#include "launch/LaunchPlan.h"
#include "launch/LaunchRecord.h"

#include <string>
#include <vector>

namespace ckpt {

// Runs a trainer as a Slurm batch job (SlurmBatchScript) and follows it: the
// batch script's events give the segments (one per start, a requeued job
// keeps its record and gets a new segment), squeue/scontrol/sacct -c give
// the job state. Every call runs Slurm commands: keep it off the GUI thread.
class SlurmBackend
{
public:
    // Writes the script to attempt.scriptPath and submits it; sets jobId.
    static Status submit(const LaunchPlan& plan, LaunchAttempt& attempt);
    // One job array (SlurmBatchScript::renderArray), its script written to
    // every attempt's scriptPath; sets each attempt's jobId to "<id>_<i>" and
    // returns the array's id.
    static Result<std::string> submitArray(const std::vector<LaunchPlan>& plans,
                                           std::vector<LaunchAttempt>& attempts, int parallel,
                                           const std::string& slurmOutput);
    // True when anything changed. A Slurm error (controller down) leaves the
    // attempt as it was and is returned.
    static Result<bool> refresh(LaunchAttempt& attempt);
    static Status cancel(LaunchAttempt& attempt);

    // Slurm's job state as ours: PENDING/REQUEUED/... -> Pending, RUNNING ->
    // Running, COMPLETED -> Completed, CANCELLED/PREEMPTED -> Stopped, other
    // ends (FAILED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY...) -> Failed.
    static RunState stateFromSlurm(const std::string& slurmState);
};

} // namespace ckpt
