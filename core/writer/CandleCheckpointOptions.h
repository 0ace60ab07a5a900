#pragma once

#include "common/Result.h"
#include "ops/KeepPolicy.h"

#include <filesystem>
#include <optional>
#include <string>

namespace ckpt {

class HyperParams;

enum class RestartMode
{
    Off,
    Auto,
    Required
};

// CANDLE's ckpt_* hyperparameters, with CANDLE's defaults.
struct CandleCheckpointOptions
{
    int epochs = 0; // epoch_max: the final epoch is always saved
    RestartMode restartMode = RestartMode::Auto;
    bool checksum = false;
    int skipEpochs = 0;
    std::filesystem::path root;    // the checkpoint root: holds epochs/, last, best, work/
    std::filesystem::path logPath; // ckpt.log
    bool saveBest = true;
    std::string saveBestMetric = "val_loss";
    bool saveWeightsOnly = false;
    int saveInterval = 1; // 0 disables saving altogether
    KeepMode keepMode = KeepMode::Linear;
    int keepLimit = 1000000;
    std::optional<double> bestMetricLast;     // nullopt = +inf
    std::optional<std::string> timestampLast; // "%Y-%m-%d %H:%M:%S"
    std::optional<std::string> metadata;
    std::string logTag = "CandleCheckpoint";
    std::string restartLogTag = "CANDLE restart()";

    // Reads epochs and the ckpt_* keys (plus metadata). The root follows the
    // generation chosen by `ckpt_layout`:
    //   "develop" (default, candle_lib 2023+): ckpt_directory, default
    //       <outputDir>/ckpts; log <root>/ckpt.log.
    //   "save" (Benchmarks common/ and older candle_lib): <ckpt_directory,
    //       default <outputDir>/save>/ckpts; log <ckpt_directory>/ckpt.log.
    // Errors name the offending parameter and its allowed values.
    static Result<CandleCheckpointOptions> fromParams(const HyperParams& params,
                                                      const std::filesystem::path& outputDir);
};

std::string_view toString(RestartMode mode);

} // namespace ckpt
