#pragma once

#include "layout/Layout.h"

#include <optional>
#include <string>
#include <string_view>

namespace ckpt {

// Caffe2 CheckpointManager's layout: one minidb per node and epoch, named
// `<db_prefix>/<node_name>.<epoch>` (or `<path_prefix><node_name>.<epoch>`). All
// nodes writing into one folder make ONE run (the folder is its root): an epoch
// is finished only when every node of the run has its db for it. An epoch some
// node has not written (yet) is not an epoch: it is listed as in progress, with
// a problem naming the missing node(s). Caffe2 records no checksums and no
// links. Discovery and loading read names and stat only, never the dbs.
//
// A name `<x>.<digits>` is generic (rotated logs, core dumps): this layout comes
// last in builtinLayouts() and refuses names that are obviously something else.
class Caffe2Layout final : public Layout
{
public:
    std::string_view name() const override { return "caffe2"; }
    bool isRunRoot(const DirListing& listing) const override;
    Run loadRun(const std::filesystem::path& root) const override;
    std::optional<Epoch> loadEpoch(const Run& run, int number) const override;
    void reloadLinks(Run&) const override {}
    bool ownsSubdirectory(std::string_view name) const override { return name == ".ckpt-studio"; }

    WatchHints watchHints() const override;
    std::optional<int> epochNumberOf(std::string_view entryName) const override;
    bool isInProgressName(std::string_view) const override { return false; }
    bool refreshInProgress(Run& run, const DirListing& rootListing) const override;
    std::string_view recordName() const override { return "minidb"; }

    // "trainer_0.12" -> {"trainer_0", 12}; nullopt for anything else.
    static std::optional<std::pair<std::string, int>> parseDbName(std::string_view name);

    static const Caffe2Layout& instance();
};

} // namespace ckpt
