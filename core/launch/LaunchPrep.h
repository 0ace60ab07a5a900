#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "config/ConfigWriter.h"
#include "config/ParamSet.h"
#include "launch/LaunchPlan.h"
#include "launch/LaunchRegistry.h"
#include "model/Run.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// What the user asks for: restart a run in place from one of its epochs, or
// fork a new run from it, with edited parameters.
struct PrepRequest
{
    std::filesystem::path runRoot; // the parent run's checkpoint root
    int fromEpoch = 0;
    LaunchPlan::Mode mode = LaunchPlan::Mode::Restart; // Restart or Fork
    // Fork: the new run's folder (it gets the parent's layout below it);
    // empty: beside the parent's run folder, named <parent>-fork-e<NNN>[-N].
    std::filesystem::path forkFolder;
    std::string forkSuffix; // appended to the default fork folder's name (sweeps: "lr-0.001")
    std::string configFile; // empty: the run's own (RunConfigFinder)
    std::vector<ParamEdit> edits;
    // empty: the template of the run's latest launch.
    std::string commandTemplate;
    bool force = false; // launch from an epoch that fails the restart check
    LaunchPlan::Backend backend = LaunchPlan::Backend::Local;
    SlurmOptions slurm;
};

// Everything a restart or fork will do, decided and checked before anything
// changes on disk: shown by --dry-run and the dialog, then applied.
struct PreparedLaunch
{
    LaunchPlan plan;              // argv with the config path it will be written to
    ParamSet original;            // the parameters the parent ran with
    std::vector<ParamEdit> edits; // as asked
    std::string configText;       // the edited config, as it will be written
    std::filesystem::path parentRoot;
    std::string epochDir;            // the parent epoch's directory, relative to parentRoot
    std::filesystem::path runFolder; // the trainer's output_dir and working directory
    std::map<std::string, std::string> values; // template placeholders
    std::vector<std::string> checkFailures;    // the restart check's refusals (forced past)
    std::vector<std::string> notes;            // edits that will not act as one expects
    // For a Slurm job: the link naming the newest checkpoint (absolute, "" when
    // none) and the arguments a requeued job resumes with (Resume).
    std::string newestLink;
    std::vector<std::string> requeueArguments;
    // Restart: the epochs after fromEpoch, moved aside into supersededDir
    // with the logs as they were, and the links re-pointed (Resume::restartLinks).
    std::vector<int> superseded;
    std::filesystem::path supersededDir;
    struct LinkMove
    {
        std::string name;
        int to = 0;
        bool stepwise = false; // re-pointed epoch by epoch as they go aside
    };
    std::vector<LinkMove> links;
    // Restart into a new segment of the run (Resume::restartSegment): the
    // trainer writes plan.runRoot beside the parent; nothing of the parent moves.
    bool segment = false;
    // Fork: the parent's epoch directory and where its files are hard-linked.
    std::filesystem::path forkEpochDir;

    // What apply() did, filled as it goes: what undo() puts back.
    struct Applied
    {
        bool done = false;                                      // apply() succeeded
        std::string time;                                       // ISO 8601 UTC, when apply() began
        std::string config;                                     // the edited config written
        std::vector<std::pair<std::string, std::string>> moved; // epoch folder -> aside
        bool supersededMade = false;
        bool configsDirMade = false;         // the config's folder did not exist before
        std::vector<std::string> journalIds; // the relinks made (journal entries), in order
        bool forkFolderMade = false;         // false: the fork's folder existed (empty)
        bool segmentMade = false;            // the new segment's root was made by apply()
    };
    Applied applied;
};

// Prepares and applies restarts and forks of the runs of any layout that can
// resume (Layout::resume(): what is the format's is asked there). Nothing is deleted or
// overwritten: superseded epochs are renamed aside on the same file system, a fork hard-links the
// parent's epoch (copies where the file system refuses links) and leaves the parent byte-identical,
// the edited config is a new file. Links move through Relinker (atomic, audited).
class LaunchPrep
{
public:
    static Result<PreparedLaunch> prepare(const PrepRequest& request,
                                          const LaunchRegistry& registry,
                                          const Progress& progress = Progress::none());
    // Carries the plan out; on success `prepared.plan` is ready for Launcher::launch.
    // A failure on the way puts back what was done.
    static Status apply(PreparedLaunch& prepared);
    // Puts an applied but not launched restart or fork back: superseded epochs
    // renamed back, `last`/`best` restored through Relinker::undo (refused
    // when the link was relinked since), the superseded folder and the written
    // config removed (ours); a fork's new folder removed (only when we made
    // it, otherwise only its contents). Refused once the run was launched
    // (the run's record has an attempt since apply): that is recorded, not
    // undone. The run's ckpt.log keeps the audit lines of both relinks.
    static Status undo(const PreparedLaunch& prepared);

    // The parameters of the config a launch would edit (request.configFile or
    // the run's own): quick, for the dialog's table while prepare() checks the epoch.
    static Result<ParamSet> parameters(const PrepRequest& request, const LaunchRegistry& registry);

    // The plan as text: what moves, what is relinked, the config edits, the argv.
    static std::string describe(const PreparedLaunch& prepared);
    // The plan's Slurm options: the form's `options` with what the format adds.
    static void setSlurm(PreparedLaunch& prepared, SlurmOptions options);
    // The folder a trainer runs in for checkpoint root `root` (Resume::runFolder
    // of the format whose rule applies; path arithmetic only, no I/O).
    static std::filesystem::path runFolderOf(const std::filesystem::path& root);
};

} // namespace ckpt
