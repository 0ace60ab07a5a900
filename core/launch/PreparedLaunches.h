#pragma once

#include "common/Result.h"
#include "launch/LaunchPrep.h"

#include <filesystem>
#include <optional>
#include <vector>

namespace ckpt {

// The restarts and forks applied but not (yet) launched: `ckpt launch
// --prepare-only` adds one, `ckpt launch --undo-prepared` finds and undoes
// it, a launch removes it. Per user, beside the launch registry
// (<XDG data home>/ckpt-studio/prepared-launches.json), so that a fork's
// parent stays byte-identical. Only what LaunchPrep::undo needs is kept.
class PreparedLaunches
{
public:
    // `file` defaults to prepared-launches.json beside LaunchRegistry::defaultPath().
    explicit PreparedLaunches(std::filesystem::path file = {});
    const std::filesystem::path& file() const { return m_file; }

    Status add(const PreparedLaunch& prepared) const;
    // Forgets the entry of this run root (launched or undone).
    Status remove(const std::string& runRoot) const;
    // The latest entry whose parent or new run is `run` (a checkpoint root or
    // the folder holding it).
    Result<std::optional<PreparedLaunch>> latestFor(const std::filesystem::path& run) const;

    static nlohmann::ordered_json toJson(const PreparedLaunch& prepared);
    static Result<PreparedLaunch> fromJson(const nlohmann::ordered_json& json);

private:
    Result<std::vector<PreparedLaunch>> read() const;
    Status write(const std::vector<PreparedLaunch>& all) const;

    std::filesystem::path m_file;
};

} // namespace ckpt
