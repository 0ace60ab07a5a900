#pragma once

#include "layout/Layout.h"

#include <string>

namespace ckpt {

// CANDLE's layout: <root>/epochs/NNN/{model.h5,ckpt-info.json}, <root>/last and
// <root>/best (absolute symlinks as CANDLE writes them), <root>/work/ while a
// save is in progress, ckpt.log and training.log at the root or above it.
class CandleLayout final : public Layout
{
public:
    std::string_view name() const override { return "candle"; }
    bool isRunRoot(const DirListing& listing) const override;
    Run loadRun(const std::filesystem::path& root) const override;
    std::optional<Epoch> loadEpoch(const Run& run, int number) const override;
    void reloadLinks(Run& run) const override;
    bool ownsSubdirectory(std::string_view name) const override;

    WatchHints watchHints() const override;
    std::optional<int> epochNumberOf(std::string_view entryName) const override;
    bool isInProgressName(std::string_view entryName) const override;
    bool refreshInProgress(Run& run, const DirListing& rootListing) const override;
    MetricHistory history(const Run& run) const override;
    std::vector<std::string> sourceCandidates(const Run& run) const override;
    void reloadSources(Run& run) const override;
    std::string_view recordName() const override { return "ckpt-info.json"; }
    bool recordsChecksums() const override { return true; }
    std::vector<std::string_view> linkNames() const override { return {"last", "best"}; }
    bool linksMovable() const override { return true; }
    bool canDeleteEpochs() const override { return true; }
    const Resume* resume() const override;
    // CANDLE's places: <root>/ckpt.log; else <root>/../ckpt.log when it exists
    // (the save/ckpts generations); else <root>/ckpt.log (created on first write).
    std::filesystem::path auditLogPath(const std::filesystem::path& root) const override;
    // The one config with a [Global_Params] section in the run's folder (CandleConfigFile).
    std::optional<std::filesystem::path>
    paramsFile(const std::filesystem::path& root) const override;

    // Kinds of the run's sources (RunSource::kind).
    static constexpr std::string_view kCkptLog = "ckpt_log";
    static constexpr std::string_view kTrainingLog = "training_log";
    static constexpr std::string_view kHistoryTxt = "history_txt";

    // "001", "012", "1000": CANDLE's "%03i".
    static std::string epochDirName(int epoch);
    static std::filesystem::path epochDir(const std::filesystem::path& root, int epoch);
    // Parses a directory name of digits; nullopt otherwise.
    static std::optional<int> parseEpochDirName(std::string_view name);

    static const CandleLayout& instance();
};

} // namespace ckpt
