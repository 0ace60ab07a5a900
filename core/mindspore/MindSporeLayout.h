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
// A folder whose saves share one prefix is one run, its root the folder. A second
// training run in the same folder writes with the prefix `<prefix>_1`, a third
// `<prefix>_2`, ... (and an unrelated training its own prefix): a folder with the
// saves of several prefixes holds one run per prefix, each named
// `<folder>/<prefix>` (runRoots; a path that does not exist, Run::dir is the
// folder), with its own epochs, `<prefix>-graph.meta`, breakpoints and `.tmp`s.
// Loading the folder itself then gives a run without epochs saying which to open.
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
    std::vector<std::string> runRoots(const DirListing& listing) const override;
    Run loadRun(const std::filesystem::path& root) const override;
    std::optional<Epoch> loadEpoch(const Run& run, int number) const override;
    void reloadLinks(Run&) const override {}
    bool ownsSubdirectory(std::string_view name) const override { return name == ".ckpt-studio"; }

    WatchHints watchHints() const override;
    // `<prefix>-graph.meta` too, which MindSpore may write after the first checkpoint.
    std::vector<std::string> sourceCandidates(const Run& run) const override;
    std::optional<int> epochNumberOf(std::string_view entryName) const override;
    std::optional<int> epochNumberFor(const Run& run, std::string_view entryName) const override;
    bool isInProgressName(std::string_view entryName) const override;
    bool refreshInProgress(Run& run, const DirListing& rootListing) const override;
    std::string_view recordName() const override { return "crc_num trailer"; }
    bool recordsChecksums() const override { return true; }

    static const MindSporeLayout& instance();

private:
    // beginRun() for a folder, or for a root naming one of the runs sharing its
    // parent (`prefix` then set; a problem when that run is gone).
    std::optional<DirListing> beginShared(Run& run, const std::filesystem::path& root,
                                          std::optional<std::string>& prefix) const;
};

} // namespace ckpt
