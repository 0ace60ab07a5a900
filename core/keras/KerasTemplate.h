#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ckpt {

// One checkpoint file name read against its ModelCheckpoint template.
struct KerasName
{
    std::string name;         // the file name as listed
    int epoch = 0;            // as written (Keras writes epoch + 1: 1-based)
    std::optional<int> batch; // when the template has {batch} (save_freq=N)
    std::vector<std::pair<std::string, double>> metrics; // in template order
};

// The file-name template a ModelCheckpoint callback was given, recovered from the
// names it produced: `weights.{epoch:02d}-{val_loss:.2f}.h5`, `model-{epoch:03d}.keras`,
// `{epoch:02d}-{batch}.weights.h5`, Synalinks `{epoch:02d}.variables.json`. Names
// are cut into literal text and numbers; names whose literal text (and extension)
// agree come from one template. A template is only believed when it has an epoch
// slot and a number that varies over at least two names, so a folder of unrelated
// .h5 or .json files is never a run. save_best_only without {epoch} overwrites one
// file in place: a single name that says so ("best", "checkpoint", "ckpt").
struct KerasTemplate
{
    std::string text;      // the template as recovered, for display
    std::string extension; // ".h5", ".weights.h5", ".keras", ".json", ...
    bool hasBatch = false;
    bool bestOnly = false;        // one file overwritten in place, no {epoch}
    std::vector<KerasName> files; // sorted by (epoch, batch, name)
};

enum class KerasFlavor
{
    Keras,    // .keras, .h5, .hdf5, .weights.h5
    Synalinks // .json programs, .variables.json
};

class KerasTemplates
{
public:
    // Every template found in a folder's file names, the one with most files first.
    // Names of no template (a README, a log) are left out.
    static std::vector<KerasTemplate> recover(const std::vector<std::string>& names,
                                              KerasFlavor flavor);
    // The extension of a checkpoint file of that flavor ("" when not one).
    static std::string_view extensionOf(std::string_view name, KerasFlavor flavor);
    // The metric an unnamed number is, when a template names none: what the
    // callback monitors by default.
    static std::string_view defaultMonitor(KerasFlavor flavor);
};

} // namespace ckpt
