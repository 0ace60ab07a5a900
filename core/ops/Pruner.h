#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "model/Run.h"
#include "ops/KeepPolicy.h"
#include "ops/Trash.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// Why a prune keeps an epoch, as text: "newest", the name of a link of the
// run's layout that designates it ("last", "best"), "policy".
inline constexpr std::string_view kKeepNewest = "newest";
inline constexpr std::string_view kKeepPolicy = "policy";

struct PruneCandidate
{
    int epoch = 0;
    std::string dir;         // absolute path of the epoch directory
    std::uint64_t bytes = 0; // everything under it (apparent sizes)
    // Identity of the directory at plan time: execute skips a directory that
    // was replaced since (a training run re-saving the same epoch).
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
};

struct KeptEpoch
{
    int epoch = 0;
    std::vector<std::string> reasons; // newest, the links in layout order, pins, policy
};

// What a prune would do; computing it changes nothing on disk.
struct PrunePlan
{
    std::string root;
    KeepPolicy policy;
    std::vector<PruneCandidate> toDelete; // ascending
    std::uint64_t bytesFreed = 0;         // sum over toDelete
    std::vector<KeptEpoch> kept;          // ascending
    // Directories left aside by an interrupted prune (epochs/.NNN.deleting-*):
    // already gone as epochs; execute finishes removing them.
    std::vector<std::string> leftovers;
    std::uint64_t leftoverBytes = 0;
    std::vector<std::string> notes; // e.g. a link that protects nothing
    // Move the epochs to the desktop trash (Trash) instead of deleting them;
    // execute refuses before anything moves when the trash cannot take them.
    bool toTrash = false;
};

// An epoch (or an interrupted prune's leftover, epoch -1) a prune moved to the trash.
struct TrashedEpoch
{
    int epoch = -1;
    TrashedItem item;
    std::uint64_t bytes = 0;
    // Identity of the directory (kept by the renames): a redo trashes only the same one.
    std::uint64_t device = 0;
    std::uint64_t inode = 0;
};

struct PruneOutcome
{
    struct Skipped
    {
        int epoch = 0;
        std::string reason;
    };
    std::vector<int> deleted;          // ascending (moved to the trash, for a plan with toTrash)
    std::vector<TrashedEpoch> trashed; // where each went, for Pruner::restore
    std::uint64_t bytesFreed = 0;
    std::vector<Skipped> skipped;
    std::vector<std::string> warnings;
    // Cancelled between epochs. Not an Error: what was deleted by then is
    // gone for good and the caller must be told exactly what.
    bool cancelled = false;
    std::string auditLog;
};

// Deletes old epochs of a run by a keep policy, safely, where its layout allows
// (Layout::canDeleteEpochs): planning and deleting are separate calls, the
// targets of the layout's links (CANDLE last/best, as resolved, relocated
// included, and as their text names) and the newest epoch are never deleted,
// and each epoch vanishes as a whole (renamed aside first, then removed).
class Pruner
{
public:
    // A layout that cannot delete epochs gets an empty plan with a note saying so.
    // `pinned` epochs are kept too, with the reasons given (Lineage::forkPins:
    // the epochs other runs were forked from).
    static PrunePlan plan(const Run& run, const KeepPolicy& policy,
                          const std::map<int, std::vector<std::string>>& pinned = {});
    // The same rule on the run as held, reading nothing: the links and file
    // sizes the Run records (a remote run, whose files are on another host and
    // whose own `ckpt prune` plans again there). Candidates carry no identity.
    static PrunePlan planHeld(const Run& run, const KeepPolicy& policy);

    // Deletes exactly the plan's epochs, each re-checked just before: one that
    // has become a link target or the newest epoch, was replaced or is gone is
    // skipped with the reason. Audited in the run's ckpt.log ("removing: ...").
    // Progress per epoch (unit "epochs"); cancel is honoured between epochs.
    static Result<PruneOutcome> execute(const Run& run, const PrunePlan& plan,
                                        const Progress& progress = Progress::none(),
                                        const std::string& actor = {});

    // Puts trashed epochs back where they were (Trash::restore), under the run's
    // lock, audited ("restoring: ..."). One that cannot go back (its place taken
    // by a new save, the trash emptied) is left as it is, with the reason.
    struct Restored
    {
        std::vector<int> epochs;
        std::vector<std::string> failures;
    };
    static Result<Restored> restore(const std::string& root, const std::string& layoutName,
                                    const std::vector<TrashedEpoch>& trashed,
                                    const std::string& actor = {});
};

} // namespace ckpt
