#pragma once

#include "common/Progress.h"
#include "common/Result.h"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// The Slurm commands a launcher needs (sbatch, squeue, scontrol, sacct -c,
// scancel), run synchronously with a timeout: call them off the GUI thread.
// The environment is inherited (SLURM_CONF included).
class SlurmClient
{
public:
    struct JobInfo
    {
        std::string jobId;
        std::string state;  // PENDING, RUNNING, COMPLETED, CANCELLED, FAILED, ...
        std::string reason; // scontrol's Reason (BeginTime after a requeue, ...)
        int restarts = 0;
        std::optional<int> exitCode;
        std::optional<int> exitSignal;
        std::string source; // "scontrol" or "sacct"
    };

    // True when sbatch is on PATH.
    static bool available();

    // sbatch --parsable SCRIPT: the job id.
    static Result<std::string> submit(const std::string& script);
    // scontrol show job -o, or the last jobcomp record (sacct -c) once
    // scontrol has forgotten the job. An array task ("1234_2") is recorded by
    // the jobcomp file under its own job id only (sacct -c reads "1234_2" as
    // job 1234): pass that id as `slurmJobId`; without it no sacct is asked.
    static Result<JobInfo> query(const std::string& jobId, const std::string& slurmJobId = {});
    static Status cancel(const std::string& jobId);
    // The job of this user that `script` was submitted as, from squeue's
    // command column; nullopt when none is queued or running (a job that has
    // started is found through its events instead).
    static Result<std::optional<std::string>> findByScript(const std::string& script);

    // "KEY=VALUE KEY=VALUE ..." of `scontrol show job -o`.
    static std::optional<JobInfo> parseScontrol(std::string_view text);
    // `sacct -c -P -n -o jobid,state,exitcode` lines: the job's LAST record.
    static std::optional<JobInfo> parseSacct(std::string_view text, const std::string& jobId);

    // Runs a command, returning stdout; the error quotes stderr.
    static Result<std::string> run(const std::string& program, const std::vector<std::string>& args,
                                   std::chrono::milliseconds timeout = std::chrono::seconds(30));
};

} // namespace ckpt
