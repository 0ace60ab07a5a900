#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "model/MetricHistory.h"
#include "model/Run.h"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ckpt {

class Resume;

// One entry of a directory as read by readdir: enough to decide without stat().
struct DirEntry
{
    enum class Type
    {
        File,
        Directory,
        Symlink,
        Other
    };
    std::string name;
    Type type = Type::Other;
};

struct DirListing
{
    std::filesystem::path dir;
    std::vector<DirEntry> entries;

    const DirEntry* find(std::string_view name) const;
};

// What the watcher needs to know about a layout's files to follow a live run
// with work proportional to the change.
struct WatchHints
{
    // The folder below the root that holds the epoch directories ("epochs");
    // empty when they sit at the root itself.
    std::string epochsDir;
    // A file in an epoch directory whose arrival means the epoch is finished
    // (an epoch directory without it is watched until it appears); empty when
    // an epoch directory is complete the moment it appears (renamed in).
    std::string finishedMarker;
    // The epochs are regular FILES in that folder (a MindSpore or Lightning .ckpt,
    // a Caffe2 db, a Keras .h5), not directories: file entries count as epochs
    // (several files of one epoch make one entry) and each epoch's file is
    // watched itself (written, truncated, overwritten in place).
    bool epochFiles = false;
    // Which files are epochs, and their numbers, follow only from the whole
    // listing (Keras' file-name templates): the watcher then re-reads the run
    // with reloadRun() instead of mapping each name to an epoch.
    bool numbersFromListing = false;
};

// A checkpoint layout (CANDLE, Orbax, ...). Discovery walks the dropped folder
// once, and at every directory asks each layout whether that directory is the
// root of one of its runs; a layout then loads the run.
//
// Beyond loading, a layout offers optional capabilities that the other layers
// ask for instead of checking its name: history sources (history()), expected
// checksums (recordsChecksums(), in EpochFile), watch hints, movable links
// (linkNames(), linksMovable()), deletable epochs (canDeleteEpochs()) and
// resume (resume()). Implementations are stateless and thread-safe.
class Layout
{
public:
    virtual ~Layout() = default;

    // Short identifier used in JSON output and the UI: candle, orbax, ...
    virtual std::string_view name() const = 0;

    // Is `listing.dir` the root of a run of this layout? Must be cheap: it may
    // look at the listing and at most one child listing, never read files.
    virtual bool isRunRoot(const DirListing& listing) const = 0;
    // The runs in a directory isRunRoot() claimed, by root. Default: the directory
    // itself. Several runs may share it (MindSpore's reruns `<prefix>_N`): each is
    // then named `<dir>/<name>` with a name that is no entry of the directory,
    // and loadRun() accepts that root (Run::dir is then the directory).
    virtual std::vector<std::string> runRoots(const DirListing& listing) const;

    // Reads the whole run below `root`: epochs, links, logs and problems.
    // Never fails as a whole: what cannot be read becomes a Problem.
    virtual Run loadRun(const std::filesystem::path& root) const = 0;

    // Re-reads a single epoch of a loaded run (for the watcher: work
    // proportional to the change). std::nullopt when the epoch is gone.
    virtual std::optional<Epoch> loadEpoch(const Run& run, int number) const = 0;

    // Re-reads the run's links (last/best) and the link problems.
    virtual void reloadLinks(Run& run) const = 0;

    // Directories below a run root that discovery must not descend into.
    virtual bool ownsSubdirectory(std::string_view name) const = 0;

    // --- Epoch directories -------------------------------------------------
    virtual WatchHints watchHints() const = 0;
    // The hints for one loaded run, when they differ between runs of the layout
    // (a Lightning version folder keeps its files in checkpoints/, a bare folder
    // at its root). The default: watchHints().
    virtual WatchHints watchHintsFor(const Run&) const { return watchHints(); }
    // The epoch an entry of the epochs folder (watchHints().epochsDir) is, when
    // it is a finished epoch directory's name.
    virtual std::optional<int> epochNumberOf(std::string_view entryName) const = 0;
    // The same for an entry of a loaded run's folder, which may hold other runs'
    // files too (Layout::runRoots). Default: epochNumberOf(entryName).
    virtual std::optional<int> epochNumberFor(const Run&, std::string_view entryName) const
    {
        return epochNumberOf(entryName);
    }
    // Is an entry of the root or of the epochs folder something being written
    // (CANDLE work/, Orbax *.orbax-checkpoint-tmp*)?
    virtual bool isInProgressName(std::string_view entryName) const = 0;
    // Re-reads the run's in-progress items and their problems from a listing of
    // the root (the watcher's cheap path). Returns whether they changed.
    virtual bool refreshInProgress(Run& run, const DirListing& rootListing) const;
    // Epoch files (WatchHints::epochFiles): re-reads the run after its folder
    // changed, like loadRun, but may keep what `before` read of files whose name
    // and inode did not change (work proportional to the change). Default: loadRun.
    virtual Run reloadRun(const Run& before) const;
    // What only a watching session can know of an epoch, carried from the epoch
    // a re-read replaces to the one replacing it (Keras: the earlier versions of
    // a file overwritten in place). Default: nothing.
    virtual void carryOver(const Epoch& before, Epoch& after) const;

    // --- History ---------------------------------------------------------
    // The run's metric history from every source the layout knows. The default
    // takes the epochs' own metrics (Epoch::metrics) at their save times.
    virtual MetricHistory history(const Run& run) const;
    // Every file Run::sources is read from, or would be once it exists
    // (absolute): Run::sources names only the files found, and a log or
    // hparams file a trainer creates later must still be seen. The watcher
    // watches these files and the folders holding them. Default: the sources found.
    virtual std::vector<std::string> sourceCandidates(const Run& run) const;
    // Re-reads Run::sources alone, after one of sourceCandidates() appeared,
    // went away or was replaced. Default: the sources of a fresh loadRun.
    virtual void reloadSources(Run& run) const;
    // The name of the per-epoch record for messages ("ckpt-info.json").
    virtual std::string_view recordName() const = 0;

    // --- Capabilities ------------------------------------------------------
    // Does the format record expected checksums of its files (EpochFile::algo)?
    virtual bool recordsChecksums() const { return false; }
    // The names of the run's links, in display order (none by default).
    virtual std::vector<std::string_view> linkNames() const { return {}; }
    // May Ckpt Studio re-point those links (rollback)?
    virtual bool linksMovable() const { return false; }
    // May Ckpt Studio delete epochs (prune)? The targets of linkNames() and the
    // newest epoch are always kept.
    virtual bool canDeleteEpochs() const { return false; }
    // How a trainer of this format resumes from a chosen epoch, and what a
    // restart or fork does to its files; nullptr: Ckpt Studio cannot resume it.
    virtual const Resume* resume() const { return nullptr; }
    bool canRestart() const { return resume() != nullptr; }
    // The parameter file the format keeps with a run (Lightning's hparams.yaml),
    // when there is one at `root`; RunConfigFinder falls back on it.
    virtual std::optional<std::filesystem::path> paramsFile(const std::filesystem::path&) const
    {
        return std::nullopt;
    }
    // Where Ckpt Studio records its changes to a run (relink, prune).
    virtual std::filesystem::path auditLogPath(const std::filesystem::path& root) const;

protected:
    // The common end of refreshInProgress: `now` holds the in-progress items and
    // their InterruptedSave problems as just read; when the items differ from
    // the run's, they and those problems replace the run's. Returns whether they did.
    static bool replaceInProgress(Run& run, Run now);
    // The start of every loadRun: a run of this layout at `root`, and the root's
    // listing; when the root cannot be listed, the run carries that problem instead.
    std::optional<DirListing> beginRun(Run& run, const std::filesystem::path& root) const;
};

// Every layout the core knows, CANDLE first.
const std::vector<const Layout*>& builtinLayouts();
const Layout* findLayout(std::string_view name);
// The layout of a loaded run (nullptr when the name is unknown).
const Layout* layoutOf(const Run& run);
// The run's metric history as its layout reads it (empty for an unknown layout).
MetricHistory historyOf(const Run& run);
// The layout whose run has its root at `root` (nullptr: no run there); a root
// that is no directory names one of the runs sharing its parent (runRoots).
const Layout* layoutAt(const std::filesystem::path& root);

// Each layout's folder defines its instance.
namespace layouts {
const Layout& candle();
const Layout& orbax();
const Layout& mindspore();
const Layout& caffe2();
const Layout& keras();
const Layout& synalinks();
const Layout& lightning();
} // namespace layouts

} // namespace ckpt
