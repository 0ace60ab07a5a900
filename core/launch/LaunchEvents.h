#pragma once

#include "launch/LaunchRecord.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ckpt {

// The events file of one launch attempt: JSON lines appended by the shell that
// supervises the trainer (local wrapper or Slurm batch script), so that what
// happened is known even when no Ckpt Studio process was running:
//   {"event":"start","time":UNIX,"pid":P,"host":"H","restart":N,"job":"SLURM_JOB_ID"}
//   {"event":"preempt","time":UNIX}      Slurm's USR1 before the time limit
//   {"event":"exit","time":UNIX,"pid":P,"status":S}   S = $? (128+N: signal N)
//   {"event":"requeue","time":UNIX}
class LaunchEvents
{
public:
    struct Event
    {
        std::string type;
        std::int64_t time = 0;
        std::int64_t pid = 0;
        std::int64_t supervisor = 0; // the process that writes the exit event (local runs)
        std::string host;
        int restart = 0;
        int status = 0;
        std::string job; // Slurm's own id of the job (an array task's is not A_T)
    };

    // Unreadable lines (a write cut short) are skipped; a missing file is empty.
    static std::vector<Event> read(const std::filesystem::path& path);

    // Folds the events into `attempt`'s segments: one segment per start event
    // (matched by restart count), ended by its exit event, or by the next
    // start (requeued). Segments already final are kept as they are.
    // Returns true when anything changed.
    static bool apply(const std::vector<Event>& events, LaunchAttempt& attempt);

    // The Slurm job id the latest start reported ("" when none did).
    static std::string slurmJobId(const std::vector<Event>& events);
};

} // namespace ckpt
