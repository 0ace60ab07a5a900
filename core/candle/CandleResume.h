#pragma once

#include "layout/Resume.h"

namespace ckpt {

// How CANDLE trainers resume: from `<ckpt_directory>/last`, read relative to
// the working directory (the folder holding save/ckpts), when told
// `--ckpt_restart_mode required` (or auto). A restart in place re-points
// `last` at the epoch and `best` at the best epoch up to it; a fork holds the
// epoch, `last` naming it and training.log (Keras CSVLogger) cut at it.
class CandleResume final : public Resume
{
public:
    std::filesystem::path runFolder(const std::filesystem::path& root) const override;
    Result<std::vector<std::string>> check(const std::filesystem::path& epochPath, int epoch,
                                           const Progress& progress) const override;
    std::map<std::string, std::string>
    values(const Run& run, const Epoch& from, const std::filesystem::path& newRoot,
           const std::filesystem::path& runFolder) const override;
    std::vector<Setting> requiredSettings() const override;
    std::vector<std::string> requeueArguments() const override;
    std::string newestLink() const override { return "last"; }
    std::string exampleCommand() const override;
    std::vector<LinkRule> restartLinks() const override;
    std::optional<int> linkTargetUpTo(const Run& run, std::string_view link,
                                      int epoch) const override;
    std::vector<std::string> forkLinks() const override { return {"last"}; }
    std::optional<std::string> cutSource(const RunSource& source, const std::string& text,
                                         const Epoch& from) const override;

    // The epoch `best` should name among epochs <= `epoch`: the one where the
    // running best (best_so_far) last improved; nullopt when none records it.
    static std::optional<int> bestUpTo(const Run& run, int epoch);
    // training.log (Keras CSVLogger, 0-based epochs) cut to its first `epochs` epochs.
    static std::string cutTrainingLog(const std::string& text, int epochs);

    // The templates of the bundled demo trainer (ckpt-demo-train) and of a
    // CANDLE benchmark script, which take CANDLE's flags.
    static std::string demoTrainerCommand(const std::string& program);
    static std::string benchmarkCommand(const std::string& script,
                                        const std::string& python = "python3");

    static const CandleResume& instance();
};

} // namespace ckpt
