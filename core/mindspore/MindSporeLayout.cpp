#include "mindspore/MindSporeLayout.h"

#include "history/LocalTime.h"
#include "io/RegularFile.h"
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

// The folder's MindSpore files by what they are: names only, no stat.
struct Catalog
{
    std::vector<Found> saves; // checkpoints and breakpoints
    std::vector<Found> tmps;
    std::vector<Found> metas;
    std::map<std::string, int> order; // prefix -> position among the folder's runs

    explicit Catalog(const std::vector<DirEntry>& entries)
    {
        std::set<std::pair<std::pair<std::string, int>, std::string>> prefixes;
        for (const DirEntry& e : entries) {
            if (!maybeFile(e))
                continue;
            auto n = MindSporeName::parse(e.name);
            if (!n)
                continue;
            auto& list = n->kind == Kind::Tmp ? tmps : n->kind == Kind::GraphMeta ? metas : saves;
            if (n->kind != Kind::Tmp)
                prefixes.insert({MindSporeName::runOf(n->prefix), n->prefix});
            list.push_back(Found{e.name, std::move(*n)});
        }
        int i = 0;
        for (const auto& p : prefixes)
            order[p.second] = i++;
    }
    int orderOf(const std::string& prefix) const
    {
        auto it = order.find(prefix);
        return it == order.end() ? -1 : it->second;
    }
    // Which save of an epoch is shown: the latest run's, a regular save before a
    // breakpoint, the highest step.
    bool before(const Found& a, const Found& b) const
    {
        const auto key = [&](const Found& f) {
            return std::make_tuple(orderOf(f.name.prefix), f.name.kind == Kind::Checkpoint ? 1 : 0,
                                   f.name.step, f.file);
        };
        return key(a) < key(b);
    }
};

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
    if (::stat(path.c_str(), &st) != 0) {
        return f; // gone since the listing: not present
    }
    f.present = S_ISREG(st.st_mode);
    f.bytes = static_cast<std::uint64_t>(st.st_size);
    f.mtimeNs = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
    f.inode = st.st_ino;
    if (!model || !f.present)
        return f;
    // The one open per epoch: the CRC trailer is the format's recorded checksum.
    UniqueFd fd;
    std::uint64_t size = 0;
    const auto opened = RegularFile::openAt(AT_FDCWD, path.c_str(), fd, &size);
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

Epoch buildEpoch(const std::string& root, const Catalog& catalog, std::vector<const Found*> saves)
{
    std::sort(saves.begin(), saves.end(),
              [&](const Found* a, const Found* b) { return catalog.before(*b, *a); });
    const Found& shown = *saves.front();
    Epoch epoch;
    epoch.number = shown.name.epoch;
    epoch.step = shown.name.step;
    epoch.metadata.set("prefix", shown.name.prefix);
    epoch.metadata.set("step_in_epoch", std::to_string(shown.name.step));
    epoch.files.push_back(
        fileOf(root, shown.file, true, epoch.problems, epoch.number, &epoch.recorded));
    if (epoch.files.front().mtimeNs != 0)
        epoch.savedAt = LocalTime::format(double(epoch.files.front().mtimeNs) / 1e9);
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
    for (std::size_t i = 1; i < saves.size(); ++i) {
        const Found& other = *saves[i];
        epoch.files.push_back(fileOf(root, other.file, false, epoch.problems, epoch.number));
        if (other.name.prefix != shown.name.prefix) {
            const std::string path = root + "/" + other.file;
            epoch.problems.push_back(Problem{
                ProblemKind::EpochMismatch,
                path + " is epoch " + std::to_string(epoch.number) + " of the earlier run \"" +
                    other.name.prefix + "\" in the same folder; the epoch shows the later run's " +
                    shown.file + ".",
                path, epoch.number});
        }
    }
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

Run MindSporeLayout::loadRun(const fs::path& rootPath) const
{
    Run run;
    const auto listing = beginRun(run, rootPath);
    if (!listing)
        return run;
    const Catalog catalog(listing->entries);
    std::map<int, std::vector<const Found*>> byEpoch;
    for (const Found& f : catalog.saves)
        byEpoch[f.name.epoch].push_back(&f);
    std::set<std::string> started;
    for (auto& [number, saves] : byEpoch) {
        run.epochs.push_back(buildEpoch(run.root, catalog, saves));
        // Epochs ascend: the first one shown of each prefix starts a training process.
        Epoch& e = run.epochs.back();
        e.firstSave = started.insert(std::string(e.metadata.get("prefix").value_or(""))).second;
    }
    for (const Found& f : catalog.metas)
        run.sources.push_back(RunSource{"graph_meta", run.root + "/" + f.file});
    std::set<std::string> bases;
    for (const auto& [prefix, order] : catalog.order)
        bases.insert(MindSporeName::runOf(prefix).first);
    if (bases.size() > 1) {
        std::string names;
        for (const auto& b : bases)
            names += (names.empty() ? "\"" : ", \"") + b + "\"";
        run.problems.push_back(Problem{
            ProblemKind::EpochMismatch,
            run.root + " holds MindSpore checkpoints of unrelated prefixes (" + names +
                "): they are shown as one run; move each training's files to a folder of its own.",
            run.root, std::nullopt});
    }
    collectInProgress(run.root, catalog, run);
    return run;
}

std::optional<Epoch> MindSporeLayout::loadEpoch(const Run& run, int number) const
{
    auto listing = DirReader::list(fs::path(run.root));
    if (!listing)
        return std::nullopt;
    const Catalog catalog(listing->entries);
    std::vector<const Found*> saves;
    for (const Found& f : catalog.saves)
        if (f.name.epoch == number)
            saves.push_back(&f);
    if (saves.empty())
        return std::nullopt;
    Epoch epoch = buildEpoch(run.root, catalog, saves);
    if (const Epoch* known = run.findEpoch(number))
        epoch.firstSave = known->firstSave;
    return epoch;
}

bool MindSporeLayout::refreshInProgress(Run& run, const DirListing& rootListing) const
{
    Run now;
    collectInProgress(run.root, Catalog(rootListing.entries), now);
    return replaceInProgress(run, std::move(now));
}

} // namespace ckpt
