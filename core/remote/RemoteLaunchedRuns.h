#pragma once

#include "common/Progress.h"
#include "launch/Launcher.h"
#include "launch/Lineage.h"
#include "remote/RemoteCkpt.h"
#include "remote/RemoteRunsSource.h"

#include <string>
#include <vector>

namespace ckpt {

// The runs Ckpt Studio launched on a far host, below one opened far folder,
// as the Experiments tab lists local ones: the far `ckpt runs --json` read
// into Launcher::Listed rows (each a one-attempt record) and the family tree
// from the far `ckpt lineage`, every root as the window's ssh:// URL.
class RemoteLaunchedRuns
{
public:
    using Source = RemoteRunsSource;
    struct Result
    {
        std::string folder;
        std::vector<Launcher::Listed> runs;
        std::vector<LineageEdge> edges;
        std::string lineageKey; // the runs the edges were read for
        std::string error;      // the far side could not be asked (the rows are the last known)
    };

    // `previous` (may be null): the last result for this source, whose edges
    // are kept when the runs did not change (no `ckpt lineage` calls then).
    static Result collect(const Source& source, const Result* previous,
                          const Progress& progress = Progress::none());

    // One row of `ckpt runs --json` as a listed run (roots prefixed).
    static Launcher::Listed listed(const RemoteLaunchedRun& run, const std::string& prefix);
    // One edge of `ckpt lineage --json` (roots prefixed).
    static LineageEdge edge(const RemoteLineageEdge& edge, const std::string& prefix);
};

} // namespace ckpt
