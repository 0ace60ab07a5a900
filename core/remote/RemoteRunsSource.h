#pragma once

#include "remote/RemoteCkpt.h"

#include <string>

namespace ckpt {

// A far folder whose launched runs the Experiments tab lists
// (RemoteLaunchedRuns). Names no launch types: the window's code that builds
// it also sees the workspace's own RunState.
struct RemoteRunsSource
{
    std::string folder; // the opened folder's URL (the window's key)
    std::string prefix; // "ssh://user@host:port": before a far root, a run root
    RemoteCkpt client;  // its target's path is the far folder
    // False while the folder's connection is down: the far runs are not asked
    // (each try would wait out ssh's connect timeout and hold the local rows
    // back); what was last known stays listed.
    bool reachable = true;
};

} // namespace ckpt
