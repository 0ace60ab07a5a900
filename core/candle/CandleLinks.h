#pragma once

#include "model/Run.h"

#include <optional>
#include <string>

namespace ckpt {

// Reads CANDLE's `last` and `best` symlinks. CANDLE writes absolute targets,
// which dangle once a run is copied off the cluster; those are resolved by their
// trailing epochs/NNN under the local root and reported as relocated.
class CandleLinks
{
public:
    struct Outcome
    {
        std::optional<RunLink> link; // nullopt when nothing stands at <root>/<name>
        Problems problems;
    };

    // `root` must be absolute and lexically normal.
    static Outcome read(const std::string& root, const std::string& name);

    // Replaces the run's last/best links and their problems (link kinds) in run.problems.
    static void readInto(Run& run);

    static bool isLinkProblem(ProblemKind kind);
};

} // namespace ckpt
