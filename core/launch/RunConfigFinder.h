#pragma once

#include "common/Result.h"
#include "launch/LaunchRegistry.h"

#include <filesystem>
#include <optional>
#include <string>

namespace ckpt {

// Which parameter file a run was trained with: the config file of its latest
// launch when Ckpt Studio launched it, else the one the user named for it
// (LaunchRegistry::External), else the one its format keeps beside it
// (Layout::paramsFile: Lightning's hparams.yaml, the one CANDLE config in a
// CANDLE run's folder). The error tells the user how to name one.
//
// With `epoch`: the file that epoch was trained with. That is the config of the
// newest launch that started before it (a restart from 6 trained 7 on); for an
// epoch older than every launch, the file the first launch was edited from
// (its base config), when it still exists; else as without `epoch`.
class RunConfigFinder
{
public:
    static Result<std::string> configFor(const std::filesystem::path& runRoot,
                                         const LaunchRegistry& registry,
                                         std::optional<int> epoch = std::nullopt);
};

} // namespace ckpt
