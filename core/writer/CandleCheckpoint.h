#pragma once

#include "candle/CkptInfo.h"
#include "common/Result.h"
#include "io/TaggedLog.h"
#include "writer/CandleCheckpointOptions.h"

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// CANDLE's checkpoint protocol (CandleCheckpointCallback / CandleCkpt), one
// instance per training process:
//   restart() before training: follows <root>/last, checks ckpt-info.json (and
//       the CRC when ckpt_checksum), returns the epoch to resume from;
//   onEpochEnd() after each epoch: decides whether to save, writes model and
//       ckpt-info.json into work/, renames it to epochs/NNN, relinks best and
//       last (absolute targets), prunes the epochs this process wrote;
// and logs every step to ckpt.log with CANDLE's messages.
class CandleCheckpoint
{
public:
    enum class Direction
    {
        Lower,
        Higher
    };
    using Metrics = std::map<std::string, double>;
    // Writes the model file at the given path.
    using ModelSaver = std::function<Status(const std::filesystem::path&)>;

    struct Restart
    {
        int epoch = 0; // the last finished epoch (1-based): training resumes at epoch + 1
        CkptInfo info;
        std::filesystem::path modelFile; // the real file behind last/model.h5
        std::filesystem::path epochDir;  // the real epochs/NNN behind last
    };

    explicit CandleCheckpoint(CandleCheckpointOptions options);

    const CandleCheckpointOptions& options() const { return m_options; }

    // "Callback initialized." and the settings, as CANDLE's report_initial().
    Status initialize();

    // CANDLE's restart(): nullopt when starting fresh (mode off, or auto and no
    // <root>/last/model.h5). Restores best_metric_last from the checkpoint.
    Result<std::optional<Restart>> restart();

    // Called after each epoch with the 1-based epoch number and the epoch's
    // metrics. Returns whether the epoch was saved.
    Result<bool> onEpochEnd(int epoch, const Metrics& logs, const ModelSaver& saver);

    // "checkpoints kept: N" and "checkpoints list: [...]".
    Status reportFinal();

    // The pure save rule (formats.md): never when interval == 0 or epoch <
    // skip; else when improved, on the final epoch, or on the interval.
    static bool shouldSave(int epoch, int epochMax, int skipEpochs, int saveInterval,
                           bool improved);
    // loss, val_loss, lr: lower is better; accuracy, val_accuracy: higher.
    static std::optional<Direction> direction(std::string_view metric);

    double bestMetricLast() const { return m_bestMetricLast; }
    int epochBest() const { return m_epochBest; }
    const std::vector<int>& epochsWritten() const { return m_epochs; }

private:
    Result<bool> improvedThisEpoch(int epoch, const Metrics& logs);
    Status save(int epoch, const ModelSaver& saver);
    Status writeInfo(const std::filesystem::path& file, int epoch);
    Status relink(const std::filesystem::path& target, const std::filesystem::path& link);
    Status prune(int epochNow);
    void log(const std::string& message) const;
    std::string rel(const std::filesystem::path& p) const;

    CandleCheckpointOptions m_options;
    TaggedLog m_log;
    std::filesystem::path m_cwd;
    double m_bestMetricLast;
    int m_epochBest = 0;
    std::vector<int> m_epochs; // written by this process, ascending
    std::optional<std::chrono::system_clock::time_point> m_timestampLast;
    std::string m_checksum;
};

} // namespace ckpt
