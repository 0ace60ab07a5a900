#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "launch/LaunchPlan.h"
#include "launch/LaunchRecord.h"

#include <chrono>

namespace ckpt {

// Runs a trainer on this machine, detached from the launching program: a
// small /bin/sh supervisor in its own session starts the trainer (stdin from
// /dev/null, stdout and stderr appended to the attempt's log), waits for it
// and appends its start and exit to the attempt's events file. The app or CLI
// may exit at any time; whoever reads the record later folds the events in
// and checks the pid (with its /proc start time) to tell running from lost.
class LocalBackend
{
public:
    // Starts `plan` (argv, working directory, environment additions). The
    // attempt's logPath and eventsPath must be set; its first segment is
    // filled (trainer pid, start time, supervisor pid) once the supervisor
    // reports the start. Errors name the program or folder at fault.
    static Status start(const LaunchPlan& plan, LaunchAttempt& attempt);

    // Folds the events file and process liveness into the attempt; true when
    // anything changed.
    static bool refresh(LaunchAttempt& attempt);

    // SIGTERM to the trainer's process group, then SIGKILL to every member
    // left after `grace`, then waits for the supervisor to record the exit.
    static Status stop(LaunchAttempt& attempt, std::chrono::milliseconds grace,
                       const Progress& progress = Progress::none());

    // argv[0] resolved as exec would (PATH search, relative to `workingDir`);
    // an error naming the program when it is missing or not executable.
    static Result<std::string> resolveProgram(const std::string& program,
                                              const std::string& workingDir,
                                              const std::string& path);
};

} // namespace ckpt
