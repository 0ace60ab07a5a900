#pragma once

#include "model/Run.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

class ProcOpenFiles;

// Whether a trainer is writing a run, decided from evidence in one place for
// the app, `ckpt scan` and `ckpt watch`:
// - live: a process holds a file of the run (or its ckpt.log) open, or work/
//   or the newest epoch changed within a window of three of the run's own
//   save intervals (10 s to 30 min; 60 s while the cadence is unknown);
// - interrupted: work/ is there but unchanged for longer than that, and no
//   process holds anything in it (a crashed or killed save);
// - idle: otherwise.
enum class LiveState
{
    Idle,
    Live,
    Interrupted,
};

std::string_view toString(LiveState state); // "idle", "live", "interrupted"

class Liveness
{
public:
    // What an assessment reads of a run: its root, work/, its logs and the
    // newest epoch directories (for the cadence). Cheap to copy.
    struct Subject
    {
        std::string root;
        std::string dir;               // where its files are (Run::directory())
        std::string workDir;           // empty: none known
        std::vector<std::string> logs; // the run's history sources (ckpt.log, training.log)
        std::vector<std::string> recentEpochDirs; // oldest first, at most kRecent
    };
    static constexpr std::size_t kRecent = 9;

    struct Evidence
    {
        bool hasWork = false;
        std::optional<std::int64_t> workAgeMs;  // newest mtime in work/
        std::optional<std::int64_t> epochAgeMs; // newest epoch's save
        std::optional<std::int64_t> cadenceMs;  // median interval between saves
        bool heldOpen = false;                  // a process has a run file open
    };

    static Subject subjectOf(const Run& run);
    // The run's in-progress save folder (CANDLE work/), empty when none.
    static std::string workDirOf(const Run& run);
    // Adds a newly saved epoch directory to the subject's recent ones.
    static void noteEpoch(Subject& subject, const std::string& epochDir);
    // What tells when an epoch of the run in `dir` was saved: its directory, or
    // its model file when epochs are files (other runs may save in that folder).
    static std::string savedPathOf(const std::string& dir, const Epoch& epoch);

    // Reads the evidence (a few stats and a shared look at /proc).
    static Evidence gather(const Subject& subject, const ProcOpenFiles& open);
    static bool heldOpen(const Subject& subject, const ProcOpenFiles& open);
    static LiveState decide(const Evidence& evidence);
    static std::int64_t windowMs(const Evidence& evidence);
    // gather + decide, with the shared /proc snapshot when it matters.
    static LiveState assess(const Subject& subject);

    // Makes the run's problems agree with `state`: an InterruptedSave problem
    // for work/ exactly when interrupted. Returns whether anything changed.
    static bool settle(Run& run, LiveState state);
    // assess + settle, for freshly loaded runs.
    static LiveState settle(Run& run);
};

} // namespace ckpt
