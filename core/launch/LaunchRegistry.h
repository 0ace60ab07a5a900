#pragma once

#include "common/Result.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// The per-user list of runs Ckpt Studio launched (so the app and the CLI find
// them again after a restart) and, for runs it did not launch, the config file
// and command the user named once. One JSON file shared by the app and the CLI,
// <XDG data home>/ckpt-studio/launched-runs.json (GenericDataLocation: the two
// programs' AppDataLocations differ), changed under an flock and replaced
// atomically.
class LaunchRegistry
{
public:
    struct Launched
    {
        std::string runRoot;
        std::string name;
        std::string added; // ISO 8601 UTC
    };
    struct External
    {
        std::string runRoot;
        std::string configFile;
        std::string command; // a command template
    };

    // `file` defaults to defaultPath().
    explicit LaunchRegistry(std::filesystem::path file = {});
    static std::filesystem::path defaultPath();
    const std::filesystem::path& file() const { return m_file; }

    // A missing file is an empty registry.
    Result<std::vector<Launched>> launched() const;
    // Adds the run or updates its name; entries stay in the order first added.
    Status addLaunched(const Launched& entry) const;
    Status forget(const std::string& runRoot) const;
    // Could addLaunched() write now (folder made, lock file opened, the folder
    // writable for the file renamed in)? Asked before a launch starts anything,
    // so a registry the user may not write refuses the launch instead of
    // leaving a started run that is not listed.
    Status checkWritable() const;

    Result<std::optional<External>> external(const std::string& runRoot) const;
    // Sets the config file and/or command of a run (empty fields keep theirs).
    Status rememberExternal(const External& entry) const;

private:
    struct Content
    {
        std::vector<Launched> launched;
        std::vector<External> external;
    };
    Result<Content> read() const;
    template <typename Change> Status modify(Change&& change) const;

    std::filesystem::path m_file;
};

} // namespace ckpt
