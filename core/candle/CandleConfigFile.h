#pragma once

#include <filesystem>
#include <optional>

namespace ckpt {

// The CANDLE parameter file kept beside a run: CANDLE records none, but a run
// folder often holds the config its trainer was given (--config_file), an INI
// file with a [Global_Params] section. Only one such file counts: with two or
// more the user names the right one.
class CandleConfigFile
{
public:
    // The run's folder for checkpoint root `root` (<run>/ckpts, <run>/save/ckpts).
    static std::filesystem::path runFolderOf(const std::filesystem::path& root);
    // The one file in the run's folder (.ini, .txt, .cfg, .conf; at most 1 MiB,
    // a regular file) with a [Global_Params] section; none when there are none or several.
    static std::optional<std::filesystem::path> besideRun(const std::filesystem::path& root);
};

} // namespace ckpt
