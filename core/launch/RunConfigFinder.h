#pragma once

#include "common/Result.h"
#include "launch/LaunchRegistry.h"

#include <filesystem>
#include <string>

namespace ckpt {

// Which parameter file a run was trained with: the config file of its latest
// launch when Ckpt Studio launched it, else the one the user named for it
// (LaunchRegistry::External), else the one its format keeps beside it
// (Layout::paramsFile: Lightning's hparams.yaml). The error tells the user how
// to name one.
class RunConfigFinder
{
public:
    static Result<std::string> configFor(const std::filesystem::path& runRoot,
                                         const LaunchRegistry& registry);
};

} // namespace ckpt
