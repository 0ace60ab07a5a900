#pragma once

#include <string>
#include <vector>

namespace ckpt {

// The Slurm form: what goes into the batch script's #SBATCH lines. Empty
// fields are left to the cluster's defaults.
struct SlurmOptions
{
    std::string partition;
    std::string time; // "HH:MM:SS", "D-HH:MM:SS" or minutes
    int nodes = 1;
    int cpusPerTask = 0;
    int gpus = 0;
    std::string memory; // "4G", "500M"
    std::string account;
    std::string jobName;
    std::vector<std::string> extraLines; // "--qos=low" or "#SBATCH --qos=low"
    // Seconds before the time limit at which Slurm sends USR1 to the batch
    // shell, which then lets the trainer finish its epoch and requeues.
    int signalGraceSeconds = 120;
    // Appended to the trainer's argv when the job runs again after a requeue
    // (SLURM_RESTART_COUNT > 0) so that it resumes from its newest checkpoint
    // (empty in the form: the format's, Resume::requeueArguments).
    std::vector<std::string> requeueArguments;
    // The link naming the run's newest checkpoint, watched by the preemption
    // trap to see an epoch finish; empty: wait the grace time out.
    std::string lastLink;

    // What sbatch would refuse or misread, one message per field ("time limit
    // '1:2:3:4': use minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS");
    // empty when the form is fine.
    std::vector<std::string> problems() const;

    // Slurm's time formats: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S (digits only).
    static bool isValidTime(const std::string& time);
    // A number with an optional K, M, G or T suffix ("4G", "500M", "2048").
    static bool isValidMemory(const std::string& memory);
};

} // namespace ckpt
