#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// Everything the scanner (fsck) can find wrong with a run or an epoch.
enum class ProblemKind
{
    InterruptedSave,    // leftover work/ directory: a save was interrupted
    ModelWithoutInfo,   // epochs/NNN has a model file but no ckpt-info.json
    InfoWithoutModel,   // ckpt-info.json names a model file that is not there
    BadInfo,            // ckpt-info.json empty, truncated or not JSON
    EpochMismatch,      // ckpt-info.json "epoch" differs from the directory number
    DanglingLink,       // last/best points nowhere and cannot be resolved locally
    RelocatedLink,      // last/best target was missing, resolved under the local root
    LinkOutsideRun,     // last/best points outside this run
    LinkToMissingEpoch, // last/best points at an epoch directory that does not exist
    LinkNotEpoch,       // last/best exists but is not a symlink to an epoch directory
    BestNotAtBest,      // best does not point at the epoch with the best recorded metric
    Unreadable,         // permission denied or I/O error
    LinkLoop,           // symlink loop met while walking
    BadLog,             // a log or history file that could not be parsed (partly)
    CopiedLink,         // last/best points into the original of a copied run (cp -a);
                        // resolved to this run's epochs/NNN of the same number
    ChecksumMismatch,   // the model file's CRC-32 differs from ckpt-info.json (verified)
    NameCollision,      // two checkpoint files saved under one name (Lightning "-vN")
};

std::string_view toString(ProblemKind kind);
std::optional<ProblemKind> problemKindFromString(std::string_view name);
// Informational kinds (a relocated link still works) do not make a run unhealthy.
bool isWarningOnly(ProblemKind kind);
// The kind in a few plain words for people ("Interrupted save").
std::string_view plainName(ProblemKind kind);

struct Problem
{
    ProblemKind kind = ProblemKind::Unreadable;
    std::string message;      // one sentence a user can act on; names the file
    std::string path;         // the file or directory concerned
    std::optional<int> epoch; // when it concerns one epoch
};

using Problems = std::vector<Problem>;

} // namespace ckpt
