#pragma once

#include "launch/SlurmOptions.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// Where a launched run comes from: the epoch it was restarted or forked from.
struct LaunchParent
{
    std::string runRoot;
    int epoch = 0;
    std::string checksum; // the epoch's recorded CRC-32 ("" when none)
    // The parameters changed from the parent's: key, old literal ("" when the
    // parent had none), new literal; in the order edited.
    struct Change
    {
        std::string key;
        std::string from;
        std::string to;
    };
    std::vector<Change> changes;
    // How many superseded folders (RunBranches::supersededFolders) the parent
    // had when this was prepared: which of them keeps the parent as it was
    // then, once it is restarted again. Unknown in records from before it was kept.
    std::optional<int> supersededBefore;
};

// Everything needed to start a trainer, decided before anything runs. A
// restart or fork preparer (or a plain "run this") fills it; a backend
// executes it and the run record keeps it verbatim.
struct LaunchPlan
{
    enum class Mode
    {
        New,     // a fresh run
        Restart, // continue a run in place from an epoch
        Fork     // a new run from another run's epoch
    };
    enum class Backend
    {
        Local,
        Slurm
    };

    std::string runRoot;    // the run's checkpoint root: its .ckpt-studio/ holds the record
    std::string name;       // shown in lists (default: the root's folder names)
    std::string workingDir; // the trainer's working directory (Resume::runFolder)
    std::string commandTemplate;
    std::vector<std::string> argv;                  // the exact argv the trainer gets
    std::map<std::string, std::string> environment; // additions to the inherited environment
    std::string configFile;                         // the parameter file passed, if any
    // The file configFile is an edited copy of (what the parent epoch was trained with).
    std::string baseConfigFile;
    std::vector<std::pair<std::string, std::string>> parameters; // effective: key -> literal
    std::optional<LaunchParent> parent;
    Mode mode = Mode::New;
    Backend backend = Backend::Local;
    SlurmOptions slurm;

    static const char* modeName(Mode mode);
    static std::optional<Mode> modeFromName(const std::string& name);
    static const char* backendName(Backend backend);
    static std::optional<Backend> backendFromName(const std::string& name);
};

} // namespace ckpt
