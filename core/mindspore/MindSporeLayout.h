#pragma once

#include "layout/Layout.h"

#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// MindSpore ModelCheckpoint's layout: checkpoint FILES `<prefix>-<epoch>_<step>.ckpt`
// in one folder, `<prefix>-graph.meta` once per run, `..._breakpoint.ckpt` saved on
// an exception, each written as `.tmp` and renamed, mode 0400. A checkpoint file
// may end in a `crc_num` trailer holding the CRC-32 of the bytes before it.
//
// The run's root is the folder. A second training run in the same folder writes
// with the prefix `<prefix>_1`, a third `<prefix>_2`, ...: every layer of Ckpt
// Studio (registry, watcher, verify store, JSON) keys a run by its root directory,
// so these runs are shown as the successive training processes of the folder's
// one Run, like restarts: the first epoch of each prefix has Epoch::firstSave set,
// and where two of them saved the same epoch number the later prefix's file is
// the epoch and the earlier one stays listed as a file of that epoch with a problem.
// Epoch numbers come from the names (Epoch::step: the step within the epoch); of
// several saves of one epoch (save_checkpoint_steps) the highest step is the model,
// the others are listed as further files. Discovery reads names and readdir types
// only; loading opens each shown checkpoint once for its size and its 17-byte
// trailer (one open per epoch, as CANDLE's ckpt-info.json). epoch_num/step_num
// inside the file are shown by the reader (MindSporeCheckpoint), not read here.
class MindSporeLayout final : public Layout
{
public:
    std::string_view name() const override { return "mindspore"; }
    bool isRunRoot(const DirListing& listing) const override;
    Run loadRun(const std::filesystem::path& root) const override;
    std::optional<Epoch> loadEpoch(const Run& run, int number) const override;
    void reloadLinks(Run&) const override {}
    bool ownsSubdirectory(std::string_view name) const override { return name == ".ckpt-studio"; }

    WatchHints watchHints() const override;
    std::optional<int> epochNumberOf(std::string_view entryName) const override;
    bool isInProgressName(std::string_view entryName) const override;
    bool refreshInProgress(Run& run, const DirListing& rootListing) const override;
    std::string_view recordName() const override { return "crc_num trailer"; }
    bool recordsChecksums() const override { return true; }

    static const MindSporeLayout& instance();
};

} // namespace ckpt
