#include "mindspore/MindSporeLayout.h"

#include "history/LocalTime.h"
#include "io/RegularFile.h"
#include "layout/AbsolutePath.h"
#include "layout/DirReader.h"
#include "mindspore/MindSporeCheckpoint.h"
#include "mindspore/MindSporeName.h"

#include <algorithm>
#include <fcntl.h>
#include <map>
#include <set>
#include <sys/stat.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

using Kind = MindSporeName::Kind;

bool maybeFile(const DirEntry& e)
{
    return e.type == DirEntry::Type::File || e.type == DirEntry::Type::Symlink;
}

struct Found
{
    std::string file;
    MindSporeName name;
};

// The folder's MindSpore files by what they are: names only, no stat. With
// `only`, the files of that prefix alone (one of several runs in the folder).
struct Catalog
{
    std::vector<Found> saves; // checkpoints and breakpoints
    std::vector<Found> tmps;
    std::vector<Found> metas;
    // The prefixes of saves and of saves being written, in run order (net, net_1, ...):
    // each is one ModelCheckpoint, one training process.
    std::vector<std::string> prefixes;

    explicit Catalog(const std::vector<DirEntry>& entries,
                     const std::optional<std::string>& only = std::nullopt)
    {
        std::set<std::pair<std::pair<std::string, int>, std::string>> ordered;
        for (const DirEntry& e : entries) {
            if (!maybeFile(e))
                continue;
            auto n = MindSporeName::parse(e.name);
            if (!n || (only && n->prefix != *only))
                continue;
            auto& list = n->kind == Kind::Tmp ? tmps : n->kind == Kind::GraphMeta ? metas : saves;
            if (n->kind != Kind::GraphMeta)
                ordered.insert({MindSporeName::runOf(n->prefix), n->prefix});
            list.push_back(Found{e.name, std::move(*n)});
        }
        for (const auto& p : ordered)
            prefixes.push_back(p.second);
    }
    // Which save of an epoch is shown: a regular save before a breakpoint, the highest step.
    static bool before(const Found& a, const Found& b)
    {
        const auto key = [](const Found& f) {
            return std::make_tuple(f.name.kind == Kind::Checkpoint ? 1 : 0, f.name.step, f.file);
        };
        return key(a) < key(b);
    }
};

// The runs of a folder holding the saves of several prefixes, by prefix: the
// name each has below the folder. A prefix's own name unless an entry of the
// folder (a directory `net_1` beside the files) or another run has it: a root
// that exists on disk is always that directory's run.
std::vector<std::pair<std::string, std::string>> sharedRuns(const DirListing& listing,
                                                            const Catalog& catalog)
{
    std::vector<std::pair<std::string, std::string>> out;
    if (catalog.prefixes.size() < 2)
        return out;
    std::set<std::string> taken;
    for (const std::string& prefix : catalog.prefixes) {
        std::string name = prefix;
        while (listing.find(name) || taken.count(name))
            name += '~';
        taken.insert(name);
        out.emplace_back(prefix, name);
    }
    return out;
}

// The prefix of a run sharing its folder, from the folder's listing; nullopt
// when no run of that root is there (any more).
std::optional<std::string> prefixOf(const Run& run, const DirListing& listing)
{
    const std::string name = fs::path(run.root).filename().string();
    for (const auto& [prefix, runName] : sharedRuns(listing, Catalog(listing.entries)))
        if (runName == name)
            return prefix;
    return std::nullopt;
}

// `read` is set when the model file was opened and its trailer looked for:
// MindSpore's per-epoch record is that trailer.
EpochFile fileOf(const std::string& root, const std::string& name, bool model, Problems& problems,
                 int epoch, bool* read = nullptr)
{
    EpochFile f;
    f.name = name;
    f.model = model;
    const std::string path = root + "/" + name;
    struct stat st = {};
    const auto describe = [&] {
        f.present = S_ISREG(st.st_mode);
        f.bytes = static_cast<std::uint64_t>(st.st_size);
        f.mtimeNs = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
        f.inode = st.st_ino;
    };
    // The model is opened straight away (the one open per epoch: its CRC
    // trailer is the format's recorded checksum), and fstat describes it; a
    // file that cannot be opened, and the others, are described by stat.
    UniqueFd fd;
    std::uint64_t size = 0;
    const auto opened = model ? RegularFile::openAt(AT_FDCWD, path.c_str(), fd, &size, &st)
                              : RegularFile::Outcome{ENOENT, {}};
    if (opened.ok()) {
        describe();
    } else {
        if (::stat(path.c_str(), &st) != 0)
            return f; // gone since the listing: not present
        describe();
        if (!model || !f.present)
            return f;
    }
    if (!opened.ok()) {
        problems.push_back(Problem{ProblemKind::Unreadable,
                                   opened.message(path) +
                                       ": its CRC trailer was not read (MindSpore writes "
                                       "checkpoints mode 0400, readable by their owner only)",
                                   path, epoch});
        return f;
    }
    if (read)
        *read = true;
    if (auto trailer = MindSporeCheckpoint::readTrailer(fd.get(), size)) {
        f.algo = ChecksumAlgo::Crc32;
        f.checksum = trailer->expected;
        f.checkedBytes = trailer->dataBytes;
    }
    return f;
}

Epoch buildEpoch(const std::string& root, std::vector<const Found*> saves)
{
    std::sort(saves.begin(), saves.end(),
              [](const Found* a, const Found* b) { return Catalog::before(*b, *a); });
    const Found& shown = *saves.front();
    Epoch epoch;
    epoch.number = shown.name.epoch;
    epoch.step = shown.name.step;
    epoch.metadata.set("prefix", shown.name.prefix);
    epoch.metadata.set("step_in_epoch", std::to_string(shown.name.step));
    epoch.files.push_back(
        fileOf(root, shown.file, true, epoch.problems, epoch.number, &epoch.recorded));
    if (epoch.files.front().mtimeNs != 0)
        epoch.savedAt = LocalTime::formatNanoseconds(epoch.files.front().mtimeNs);
    const std::string shownPath = root + "/" + shown.file;
    if (shown.name.kind == Kind::Breakpoint)
        epoch.problems.push_back(
            Problem{ProblemKind::InterruptedSave,
                    shownPath +
                        " was saved on an exception (MindSpore breakpoint): training stopped "
                        "with an error in epoch " +
                        std::to_string(epoch.number) + " at step " +
                        std::to_string(shown.name.step) + "; it may hold a partly trained epoch.",
                    shownPath, epoch.number});
    for (std::size_t i = 1; i < saves.size(); ++i)
        epoch.files.push_back(fileOf(root, saves[i]->file, false, epoch.problems, epoch.number));
    return epoch;
}

void collectInProgress(const std::string& root, const Catalog& catalog, Run& run)
{
    for (const Found& f : catalog.tmps) {
        const std::string path = root + "/" + f.file;
        run.inProgress.push_back(InProgressItem{path, f.name.epoch});
        run.problems.push_back(
            Problem{ProblemKind::InterruptedSave,
                    path + " is a MindSpore checkpoint being written, or left over from an "
                           "interrupted save: it is not a finished epoch. If no training is "
                           "running, delete it.",
                    path, f.name.epoch});
    }
    std::sort(run.inProgress.begin(), run.inProgress.end(),
              [](const InProgressItem& a, const InProgressItem& b) { return a.path < b.path; });
}

} // namespace

const MindSporeLayout& MindSporeLayout::instance()
{
    static const MindSporeLayout layout;
    return layout;
}

const Layout& layouts::mindspore()
{
    return MindSporeLayout::instance();
}

WatchHints MindSporeLayout::watchHints() const
{
    WatchHints hints;
    hints.epochFiles = true;
    return hints;
}

std::vector<std::string> MindSporeLayout::sourceCandidates(const Run& run) const
{
    std::vector<std::string> out = Layout::sourceCandidates(run);
    if (run.epochs.empty())
        return out;
    // A run's saves share one prefix (reruns in the folder are runs of their own).
    for (const Epoch* e : {&run.epochs.front(), &run.epochs.back()}) {
        const auto prefix = e->metadata.get("prefix");
        if (!prefix)
            continue;
        std::string meta = run.directory() + "/" + std::string(*prefix) + "-graph.meta";
        if (std::find(out.begin(), out.end(), meta) == out.end())
            out.push_back(std::move(meta));
    }
    return out;
}

bool MindSporeLayout::isRunRoot(const DirListing& listing) const
{
    for (const DirEntry& e : listing.entries) {
        if (!maybeFile(e))
            continue;
        if (auto n = MindSporeName::parse(e.name); n && n->kind != Kind::GraphMeta)
            return true;
    }
    return false;
}

std::optional<int> MindSporeLayout::epochNumberOf(std::string_view entryName) const
{
    auto n = MindSporeName::parse(entryName);
    if (!n || n->kind == Kind::Tmp || n->kind == Kind::GraphMeta)
        return std::nullopt;
    return n->epoch;
}

bool MindSporeLayout::isInProgressName(std::string_view entryName) const
{
    auto n = MindSporeName::parse(entryName);
    return n && n->kind == Kind::Tmp;
}

std::vector<std::string> MindSporeLayout::runRoots(const DirListing& listing) const
{
    const auto runs = sharedRuns(listing, Catalog(listing.entries));
    if (runs.empty())
        return Layout::runRoots(listing);
    const std::string dir = listing.dir.string();
    std::vector<std::string> roots;
    for (const auto& [prefix, name] : runs)
        roots.push_back(dir == "/" ? dir + name : dir + "/" + name);
    return roots;
}

std::optional<int> MindSporeLayout::epochNumberFor(const Run& run, std::string_view entryName) const
{
    auto n = MindSporeName::parse(entryName);
    if (!n || n->kind == Kind::Tmp || n->kind == Kind::GraphMeta)
        return std::nullopt;
    if (!run.dir.empty()) {
        // The run's name is its prefix, with '~'s when an entry had that name.
        std::string name = fs::path(run.root).filename().string();
        while (name.size() > n->prefix.size() && name.back() == '~')
            name.pop_back();
        if (name != n->prefix)
            return std::nullopt;
    }
    return n->epoch;
}

std::optional<DirListing> MindSporeLayout::beginShared(Run& run, const fs::path& rootPath,
                                                       std::optional<std::string>& prefix) const
{
    const std::string root = AbsolutePath::normal(rootPath);
    struct stat st = {};
    if (::stat(root.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        return beginRun(run, root); // an existing directory is the run of that folder
    const fs::path dir = fs::path(root).parent_path();
    auto listing = DirReader::list(dir);
    if (!listing)
        return beginRun(run, root); // says why it cannot be listed
    run.root = root;
    run.dir = dir.string();
    run.layout = std::string(name());
    prefix = prefixOf(run, *listing);
    if (!prefix)
        run.problems.push_back(
            Problem{ProblemKind::Unreadable,
                    root + ": no MindSpore checkpoints of that run in " + run.dir + " (any more)",
                    root, std::nullopt});
    return std::move(*listing);
}

Run MindSporeLayout::loadRun(const fs::path& rootPath) const
{
    Run run;
    std::optional<std::string> prefix;
    const auto listing = beginShared(run, rootPath, prefix);
    if (!listing || (!run.dir.empty() && !prefix))
        return run;
    const Catalog catalog(listing->entries, prefix);
    if (!prefix && catalog.prefixes.size() > 1) {
        // Several training processes: each prefix is a run of its own (runRoots).
        std::string roots;
        for (const std::string& r : runRoots(*listing))
            roots += "\n  " + r;
        run.problems.push_back(Problem{ProblemKind::EpochMismatch,
                                       run.root + " holds the MindSpore checkpoints of " +
                                           std::to_string(catalog.prefixes.size()) +
                                           " runs; open one of them:" + roots,
                                       run.root, std::nullopt});
        return run;
    }
    const std::string& dir = run.directory();
    std::map<int, std::vector<const Found*>> byEpoch;
    for (const Found& f : catalog.saves)
        byEpoch[f.name.epoch].push_back(&f);
    for (auto& [number, saves] : byEpoch)
        run.epochs.push_back(buildEpoch(dir, saves));
    // The first epoch saved by the training process (a rerun resumed from a later
    // epoch starts there).
    if (!run.epochs.empty())
        run.epochs.front().firstSave = true;
    for (const Found& f : catalog.metas)
        run.sources.push_back(RunSource{"graph_meta", dir + "/" + f.file});
    collectInProgress(dir, catalog, run);
    return run;
}

std::optional<Epoch> MindSporeLayout::loadEpoch(const Run& run, int number) const
{
    auto listing = DirReader::list(fs::path(run.directory()));
    if (!listing)
        return std::nullopt;
    std::optional<std::string> prefix;
    if (!run.dir.empty() && !(prefix = prefixOf(run, *listing)))
        return std::nullopt;
    const Catalog catalog(listing->entries, prefix);
    std::vector<const Found*> saves;
    for (const Found& f : catalog.saves)
        if (f.name.epoch == number)
            saves.push_back(&f);
    if (saves.empty())
        return std::nullopt;
    Epoch epoch = buildEpoch(run.directory(), saves);
    if (const Epoch* known = run.findEpoch(number))
        epoch.firstSave = known->firstSave;
    return epoch;
}

bool MindSporeLayout::refreshInProgress(Run& run, const DirListing& rootListing) const
{
    std::optional<std::string> prefix;
    if (!run.dir.empty() && !(prefix = prefixOf(run, rootListing)))
        return false;
    Run now;
    collectInProgress(run.directory(), Catalog(rootListing.entries, prefix), now);
    return replaceInProgress(run, std::move(now));
}

} // namespace ckpt
