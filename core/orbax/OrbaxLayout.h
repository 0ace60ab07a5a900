#pragma once

#include "layout/Layout.h"

#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// Orbax CheckpointManager's layout: step folders `<root>/<step>` or
// `<root>/<prefix>_<step>`, each with a `_CHECKPOINT_METADATA` JSON file
// (`metrics`, `commit_timestamp_nsecs`, `custom_metadata`, ...). A save is
// written into `<step>.orbax-checkpoint-tmp` (or `...-tmp-<timestamp>`) and
// renamed when finished: such folders are in progress, never epochs. Orbax
// keeps no links and no checksums. An epoch's number is its step.
class OrbaxLayout final : public Layout
{
public:
    static constexpr std::string_view kMetadataName = "_CHECKPOINT_METADATA";
    static constexpr std::string_view kTmpMark = ".orbax-checkpoint-tmp";

    std::string_view name() const override { return "orbax"; }
    bool isRunRoot(const DirListing& listing) const override;
    Run loadRun(const std::filesystem::path& root) const override;
    std::optional<Epoch> loadEpoch(const Run& run, int number) const override;
    void reloadLinks(Run&) const override {}
    bool ownsSubdirectory(std::string_view name) const override;

    WatchHints watchHints() const override { return WatchHints{{}, std::string(kMetadataName)}; }
    std::optional<int> epochNumberOf(std::string_view entryName) const override;
    bool isInProgressName(std::string_view entryName) const override;
    bool refreshInProgress(Run& run, const DirListing& rootListing) const override;
    std::string_view recordName() const override { return kMetadataName; }
    bool canDeleteEpochs() const override { return true; }
    const Resume* resume() const override;

    // "<step>" or "<prefix>_<step>" -> step; nullopt for anything else.
    static std::optional<int> parseStepName(std::string_view name);

    static const OrbaxLayout& instance();
};

} // namespace ckpt
