#pragma once

#include "layout/Layout.h"

#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// PyTorch Lightning's layout. A run is either a logger version folder
// (`lightning_logs/version_N/` with `checkpoints/*.ckpt`, `hparams.yaml`,
// `metrics.csv`) or a bare folder of `*.ckpt` files named by ModelCheckpoint
// (`epoch=3-step=100.ckpt`, `epoch=2-val_loss=0.12.ckpt`, `model-epoch=3.ckpt`).
//
// Epochs are FILES (each .ckpt is a torch.save zip). Epoch::dir is the file's
// path relative to the root and its one EpochFile names the file absolutely.
// Epoch::number is derived from the name alone, so the watcher can map an
// inotify event to an epoch without listing the folder (LightningName::number):
// - the global step when the name has `step=` (Lightning's default template):
//   unique and growing even with several saves per epoch (every_n_train_steps);
// - else the epoch as named (0-based, as Lightning counts: not shifted by one);
// - a "-vN" collision file gets N * 100,000,000 added: both files are shown,
//   and the collision is a run problem of kind name_collision naming both.
// The Lightning epoch, step and version are in Epoch::metadata; the metrics of
// the name (`val_loss=0.12`) are the epoch's metrics.
//
// torch.save writes in place: a file whose zip has no end-of-central-directory
// record yet is half-written (or was interrupted): the epoch is shown without
// a record (never finished) with an interrupted_save problem, and the watcher
// follows it until it is complete. Detecting it costs one open and one 22-byte
// read per file at load (CANDLE reads one ckpt-info.json per epoch).
//
// `last.ckpt` is the run's `last` link: a relative symlink resolves to the
// epoch file it names; a regular last.ckpt is Lightning's copy (save_last=True)
// and is shown as a link that is no symlink and resolves to no epoch (which
// epoch it copies is only inside the file); it is never an epoch itself.
// hparams.yaml and metrics.csv are the run's sources ("hparams",
// "metrics_csv"); metrics.csv is the metric history (history()).
class LightningLayout final : public Layout
{
public:
    static constexpr std::string_view kCheckpointsDir = "checkpoints";
    static constexpr std::string_view kLastName = "last.ckpt";
    static constexpr std::string_view kHparamsName = "hparams.yaml";
    static constexpr std::string_view kMetricsName = "metrics.csv";

    std::string_view name() const override { return "lightning"; }
    bool isRunRoot(const DirListing& listing) const override;
    Run loadRun(const std::filesystem::path& root) const override;
    std::optional<Epoch> loadEpoch(const Run& run, int number) const override;
    void reloadLinks(Run& run) const override;
    bool ownsSubdirectory(std::string_view name) const override;

    WatchHints watchHints() const override;
    WatchHints watchHintsFor(const Run& run) const override;
    std::optional<int> epochNumberOf(std::string_view entryName) const override;
    bool isInProgressName(std::string_view) const override { return false; }
    MetricHistory history(const Run& run) const override;
    std::vector<std::string> sourceCandidates(const Run& run) const override;
    void reloadSources(Run& run) const override;
    std::string_view recordName() const override { return "*.ckpt"; }
    std::vector<std::string_view> linkNames() const override { return {"last"}; }
    const Resume* resume() const override;
    std::optional<std::filesystem::path>
    paramsFile(const std::filesystem::path& root) const override;

    // The folder holding the run's .ckpt files (absolute).
    static std::string checkpointsPath(const Run& run);

    static const LightningLayout& instance();
};

} // namespace ckpt
