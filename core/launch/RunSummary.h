#pragma once

#include "launch/LaunchPlan.h"
#include "launch/LaunchRecord.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// How a launched run is summed up in lists (`ckpt runs`, the Experiments
// panel, `ckpt lineage`, the lineage graph): one wording for the CLI and the app.
class RunSummary
{
public:
    // When the latest attempt started: its first segment's start, else its
    // submission ("" when neither is known).
    static std::string started(const LaunchAttempt& attempt);
    // Seconds from the start to the end, or to `nowUnix` while it runs; none
    // while pending or when the times cannot be read.
    static std::optional<std::int64_t> durationSeconds(const LaunchAttempt& attempt,
                                                       std::int64_t nowUnix);
    // "job 4711", "pid 1234" or "-".
    static std::string process(const LaunchAttempt& attempt);
    // "learning_rate 0.01 -> 0.001" ("-" for a parameter the parent lacked).
    static std::string change(const LaunchParent::Change& change);
    // The changes joined with ", "; "" when none.
    static std::string changes(const std::vector<LaunchParent::Change>& changes);
    // A registered name without its checkpoint folders ("EXP000/RUN001/ckpts"
    // -> "EXP000/RUN001"); the run folder's name (RunBranches::displayName)
    // when it has none.
    static std::string displayName(const std::string& name, const std::string& runRoot);
};

} // namespace ckpt
