#pragma once

#include <filesystem>

class GapProbe;

// The Experiments panel under load: RUNS launch records (running under this
// process's pid, so every refresh reads every record and probes /proc; most
// runs forked from another, so the lineage graph has RUNS nodes), the panel
// shown and refreshed every 250 ms on top of its own schedule for
// `durationMs`. Kept apart from the window's code: launch/RunState and the
// workspace's RunState must not meet in one translation unit.
struct ExperimentsBenchResult
{
    double stallMs = 0;
    double cpuMs = 0;
    int refreshes = 0;
    int rows = 0;
    int nodes = 0;
    double firstShownMs = -1; // all rows shown, from the panel's creation
};

ExperimentsBenchResult runExperimentsBench(const std::filesystem::path& dir, int runs,
                                           int durationMs, GapProbe& probe);
