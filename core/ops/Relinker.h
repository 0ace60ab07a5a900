#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "model/Run.h"
#include "ops/ActionJournal.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

struct RelinkOptions
{
    // Overrides the refusals that protect a restart (missing ckpt-info.json or
    // model file, checksum mismatch; for undo: the link moved since, or the
    // previous target is gone). Never overrides replacing a real directory.
    bool force = false;
    std::string actor; // "user@host" for the audit; empty: this process's user and host
};

struct RelinkOutcome
{
    std::string link;                          // "last" or "best"
    std::string linkPath;                      // absolute path of the link
    std::optional<std::string> previousTarget; // exact link text before; nullopt: no link
    std::optional<std::string> newTarget;      // exact link text now; nullopt: link removed
    std::optional<int> epoch;                  // the epoch the link now designates
    bool changed = true;                       // false: it already pointed there, nothing done
    std::vector<std::string> overridden;       // refusals that `force` overrode
    std::vector<std::string> warnings;         // e.g. the audit line could not be written
    std::string journalId;                     // the journal entry of this action
    std::string auditLog;                      // the ckpt.log written to
};

// Changes a run's `last`/`best` links: the rollback a CANDLE restart follows.
// Every change is atomic (the new link is renamed over the old one: readers
// never see no link), journalled before it happens (so undo knows the exact
// previous text) and audited in the run's ckpt.log afterwards. Actions on one
// run are serialised through RunLock.
class Relinker
{
public:
    // Points `linkName` at epochs/NNN of `epoch` with a RELATIVE target, so the
    // run survives being copied or moved. Refuses: another link name; a missing
    // epoch directory; a `last`/`best` that is not a symlink; and unless forced,
    // an epoch a restart could not use (ckpt-info.json missing or unreadable or
    // naming another epoch, model file missing, checksum mismatch; a checksum of
    // "__DISABLED__" or none is not checked). The CRC over the model file
    // reports progress in bytes and can be cancelled.
    static Result<RelinkOutcome> relink(const std::filesystem::path& runRoot,
                                        std::string_view linkName, int epoch,
                                        const RelinkOptions& options = {},
                                        const Progress& progress = Progress::none());

    // Restores the previous target of the most recent relink/repair not yet
    // undone (exact text, absolute or absent), atomically and audited; repeated
    // undos walk further back. Refuses, unless forced, when the link no longer
    // holds what that action set (someone moved it since) or when the previous
    // target's epoch has been deleted since.
    static Result<RelinkOutcome> undo(const std::filesystem::path& runRoot,
                                      const RelinkOptions& options = {});

    // One-click fix of a link that a move or a copy broke: an absolute target
    // that no longer exists (the run was moved) or that lies outside the run
    // (`cp -a` kept the original's targets). Re-points it at the local
    // epochs/NNN named by the old text's tail, relative, journalled and audited
    // like a relink. The epoch is the one the link already meant, so it is not
    // re-verified. Refuses when the link resolves inside the run, or no local
    // epoch matches.
    static Result<RelinkOutcome> repair(const std::filesystem::path& runRoot,
                                        std::string_view linkName,
                                        const RelinkOptions& options = {});
    // Whether repair() would fix this link (for the UI's "Repair" buttons).
    static bool isRepairable(const std::filesystem::path& runRoot, std::string_view linkName);
    // repair() of each of last and best that needs it, in that order, each its
    // own journal entry (undo reverts them one by one). Error when none needs
    // it, or naming the first that failed (the ones before stay repaired).
    static Result<std::vector<RelinkOutcome>> repairAll(const std::filesystem::path& runRoot,
                                                        const RelinkOptions& options = {});

    // The checks relink makes on an epoch, as messages; empty when a restart
    // from it would succeed. Error only for I/O trouble and cancellation.
    static Result<std::vector<std::string>> checkEpoch(const std::filesystem::path& runRoot,
                                                       int epoch,
                                                       const Progress& progress = Progress::none());

    // The epochs after `epoch` that a restart from it would overwrite, one by
    // one, as it saves again (ascending): the GUI's confirmation lists them.
    static std::vector<int> restartOverwrites(const Run& run, int epoch);

    // The journalled action undo would revert next, if any (for the UI).
    static Result<std::optional<JournalEntry>> nextUndo(const std::filesystem::path& runRoot);
};

} // namespace ckpt
