#pragma once

#include "keras/KerasTemplate.h"
#include "layout/Layout.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace ckpt {

// Keras' ModelCheckpoint (layout "keras": .keras, .h5, .weights.h5 files) and
// Synalinks' ProgramCheckpoint ("synalinks": .json programs, .variables.json):
// one file per save, in one folder, named from a template such as
// `weights.{epoch:02d}-{val_loss:.2f}.h5`. The folder is the run; each file is an
// epoch (Epoch::dir "", files[0] the file). The template is recovered from the
// names (KerasTemplates), and so are the epoch (1-based, as written) and the
// metrics in the name, which make the run's history.
//
// Numbering: with {epoch} only, an epoch's number is the epoch as written; two
// files of one epoch (a restarted fit) keep the first by name and report the
// other. With {epoch} and {batch} (save_freq=N), the files are sorted by
// (epoch, batch) and numbered 1, 2, ... in that order; Epoch::step is the batch
// and the metadata keeps "epoch" and "batch" as written.
//
// save_best_only without {epoch} overwrites one file: a run of one epoch
// (number 1, metadata "save_best_only"). A watcher sees each overwrite; the
// earlier versions it saw are kept in the metadata "rewrites" (a JSON array of
// their save times, oldest first; only what the session watched, as the file
// itself keeps no history).
//
// Keras writes in place, so a half-written file (see KerasFileCheck) is an epoch
// without a record (hasRecord() false) and an InterruptedSave problem, never a
// finished epoch. Files of a second template in the same folder are reported,
// not shown. No links, no checksums; epochs are not deleted by Ckpt Studio.
class KerasLayout final : public Layout
{
public:
    explicit KerasLayout(KerasFlavor flavor) : m_flavor(flavor) {}

    std::string_view name() const override;
    bool isRunRoot(const DirListing& listing) const override;
    Run loadRun(const std::filesystem::path& root) const override;
    std::optional<Epoch> loadEpoch(const Run& run, int number) const override;
    void reloadLinks(Run&) const override {}
    bool ownsSubdirectory(std::string_view name) const override { return name == ".ckpt-studio"; }

    WatchHints watchHints() const override;
    std::optional<int> epochNumberOf(std::string_view) const override { return std::nullopt; }
    bool isInProgressName(std::string_view) const override { return false; }
    Run reloadRun(const Run& before) const override;
    void carryOver(const Epoch& before, Epoch& after) const override;
    std::string_view recordName() const override { return "ModelCheckpoint file name"; }

    KerasFlavor flavor() const { return m_flavor; }

    static const KerasLayout& keras();
    static const KerasLayout& synalinks();

private:
    // The run at `root` from its listing (file name -> inode); `before` lends the
    // epochs of unchanged files.
    Run build(const std::string& root, const std::map<std::string, std::uint64_t>& files,
              const Run* before) const;

    KerasFlavor m_flavor;
};

} // namespace ckpt
