#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "model/Run.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

// How the trainers of one format resume from an epoch, and what a restart in
// place or a fork does to that format's files: the part of a launch that
// belongs to the format (Layout::resume()). core/launch plans, applies and
// undoes these moves for any layout and knows no framework.
//
// A restart in place moves the epochs after the chosen one aside (renamed,
// never deleted) and re-points the run's links; a fork makes a new run folder
// holding the chosen epoch (hard-linked), the links the format keeps and the
// logs cut at that epoch. Implementations are stateless and thread-safe.
//
// core/launch finds an epoch at `root / Epoch::dir` (moved aside, hard-linked,
// handed to the trainer): a layout offers resume() only when its Epoch::dir
// names the epoch's folder or file (not Keras' "" with the file in files[0]).
class Resume
{
public:
    virtual ~Resume() = default;

    // The folder a trainer of the run at checkpoint root `root` works in: its
    // working directory and output_dir (a fork copies the path from it to the
    // root below the new folder).
    virtual std::filesystem::path runFolder(const std::filesystem::path& root) const = 0;
    // `root` normalised, without a trailing slash ("RUN/ckpts/" as "RUN/ckpts"):
    // where every runFolder rule starts.
    static std::filesystem::path plain(const std::filesystem::path& root);

    // What would make a resume from epoch `epoch` at `epochPath` (its folder
    // or file) fail (the record, a file, a checksum), as messages naming the
    // file; empty: it would work. Error for I/O trouble and cancel.
    virtual Result<std::vector<std::string>> check(const std::filesystem::path& epochPath,
                                                   int epoch, const Progress& progress) const = 0;

    // The command template placeholders for resuming `run` from `from` into
    // the run at `newRoot` (the run's own root for a restart in place) whose
    // trainer works in `runFolder`. Every layout fills `epoch` and
    // `initial_epoch` (as the framework counts) and `step` when known; core/launch adds checkpoint
    // (the file or folder the trainer loads), config, run_dir and output_dir.
    virtual std::map<std::string, std::string> values(const Run& run, const Epoch& from,
                                                      const std::filesystem::path& newRoot,
                                                      const std::filesystem::path& runFolder) const;

    // A setting the edited config must carry when the command does not pass a
    // placeholder of the same name (CANDLE: ckpt_restart_mode = 'required',
    // so that a trainer told "off" in its config cannot start over).
    struct Setting
    {
        std::string key;
        std::string value; // as typed after KEY= (ParamEdit::parse)
    };
    virtual std::vector<Setting> requiredSettings() const { return {}; }

    // Arguments appended to the trainer's argv when a Slurm job runs again
    // after a requeue, so that it resumes from its newest checkpoint.
    virtual std::vector<std::string> requeueArguments() const { return {}; }

    // The link that names the run's newest checkpoint ("" when none): a Slurm
    // job's preemption trap watches it to see an epoch finish.
    virtual std::string newestLink() const { return {}; }

    // What the plan must say about edited keys (lower-cased) that will not
    // take effect as the user expects (Lightning restores the optimizer's
    // learning rate from the checkpoint): one line per key; none by default.
    virtual std::vector<std::string> editNotes(const std::vector<std::string>& keys) const
    {
        (void)keys;
        return {};
    }

    // A command template for the user to adapt, naming the placeholders this
    // format's trainers take (shown when no command is known for a run).
    virtual std::string exampleCommand() const = 0;

    // Where a restart of the run at `root` continues: nullopt: in place, in the
    // run's own root (the later epochs go aside, the links move); else a new
    // segment of the same run beside it (Lightning's next logger version),
    // which the trainer writes and where nothing of the old one moves.
    virtual std::optional<std::filesystem::path>
    restartSegment(const std::filesystem::path& root) const
    {
        (void)root;
        return std::nullopt;
    }

    // --- Restart in place: the run's links ---------------------------------
    // The links a restart re-points, in order. A plain link goes to its target
    // first; a `stepwise` one (CANDLE's best) that names an epoch past the
    // restart is re-pointed before that epoch goes aside, at its target among
    // the epochs that stay then, so it always names an epoch present.
    struct LinkRule
    {
        std::string name;
        bool stepwise = false;
    };
    virtual std::vector<LinkRule> restartLinks() const { return {}; }
    // The epoch link `link` should name when the run's newest epoch is
    // `epoch` (nullopt: none of them; the link is left as it is).
    virtual std::optional<int> linkTargetUpTo(const Run& run, std::string_view link,
                                              int epoch) const;

    // --- Fork ----------------------------------------------------------------
    // The epoch as a fork's default folder name gives it (RUN-fork-e<label>):
    // the epoch directory's name by default ("006").
    virtual std::string epochLabel(const Epoch& epoch) const;
    // The links a fork makes to its one epoch ("last" for CANDLE).
    virtual std::vector<std::string> forkLinks() const { return {}; }
    // A source (log) of the parent cut to the epochs up to `from`, for the fork
    // to continue; nullopt: the fork starts without it.
    virtual std::optional<std::string> cutSource(const RunSource& source, const std::string& text,
                                                 const Epoch& from) const;
};

} // namespace ckpt
