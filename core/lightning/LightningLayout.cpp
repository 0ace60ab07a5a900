#include "lightning/LightningLayout.h"

#include "history/EpochHistory.h"
#include "history/HistoryBuilder.h"
#include "layout/DirReader.h"
#include "lightning/LightningEpochReader.h"
#include "lightning/LightningMetricsCsv.h"
#include "lightning/LightningName.h"
#include "lightning/LightningResume.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

bool maybeFile(const DirEntry& e)
{
    return e.type == DirEntry::Type::File || e.type == DirEntry::Type::Symlink;
}

bool isEpochName(const DirEntry& e)
{
    return maybeFile(e) && LightningName::parse(e.name) && LightningName::parse(e.name)->number();
}

// The folder of the .ckpt files relative to the root: "checkpoints" when the
// root has one (a logger version folder), else the root itself.
std::string checkpointsRel(const DirListing& rootListing)
{
    const DirEntry* sub = rootListing.find(LightningLayout::kCheckpointsDir);
    return sub && sub->type == DirEntry::Type::Directory
               ? std::string(LightningLayout::kCheckpointsDir)
               : std::string();
}

std::string relOf(const Run& run)
{
    const std::string dir = LightningLayout::checkpointsPath(run);
    return dir.size() > run.root.size() ? dir.substr(run.root.size() + 1) : std::string();
}

std::string fileNameOf(const Epoch& e)
{
    const auto slash = e.dir.rfind('/');
    return slash == std::string::npos ? e.dir : e.dir.substr(slash + 1);
}

// Files that share an epoch/step and differ by Lightning's "-vN": both stay,
// the collision is a problem naming them.
void reportCollisions(Run& run)
{
    std::map<int, std::vector<const Epoch*>> byBase;
    for (const Epoch& e : run.epochs)
        byBase[e.number % LightningName::kVersionStride].push_back(&e);
    for (const auto& [base, epochs] : byBase) {
        if (epochs.size() < 2)
            continue;
        std::string names;
        for (const Epoch* e : epochs)
            names += (names.empty() ? "" : " and ") + fileNameOf(*e);
        const Epoch& later = *epochs.back();
        run.problems.push_back(Problem{
            ProblemKind::NameCollision,
            LightningLayout::checkpointsPath(run) + ": " + names +
                " were saved under the same name (Lightning added -vN to the later ones, e.g. "
                "a second training into the same folder): both are shown; check which one you "
                "mean before resuming.",
            run.pathOf(later), later.number});
    }
}

constexpr std::pair<std::string_view, std::string_view> kSources[] = {
    {"hparams", LightningLayout::kHparamsName},
    {"metrics_csv", LightningLayout::kMetricsName},
};

// hparams.yaml and metrics.csv as the root's listing has them (empty paths when absent).
void readSources(Run& run, const DirListing& rootListing)
{
    std::erase_if(run.sources, [](const RunSource& s) {
        return std::any_of(std::begin(kSources), std::end(kSources),
                           [&](const auto& known) { return s.kind == known.first; });
    });
    for (const auto& [kind, file] : kSources) {
        const DirEntry* e = rootListing.find(file);
        run.sources.push_back(RunSource{
            std::string(kind), e && maybeFile(*e) ? run.root + "/" + std::string(file) : ""});
    }
}

} // namespace

const LightningLayout& LightningLayout::instance()
{
    static const LightningLayout layout;
    return layout;
}

const Layout& layouts::lightning()
{
    return LightningLayout::instance();
}

std::string LightningLayout::checkpointsPath(const Run& run)
{
    const std::string dir = run.sourcePath("checkpoints");
    return dir.empty() ? run.root : dir;
}

WatchHints LightningLayout::watchHints() const
{
    WatchHints hints;
    hints.epochsDir = std::string(kCheckpointsDir);
    hints.epochFiles = true;
    return hints;
}

WatchHints LightningLayout::watchHintsFor(const Run& run) const
{
    WatchHints hints = watchHints();
    hints.epochsDir = relOf(run);
    return hints;
}

std::optional<int> LightningLayout::epochNumberOf(std::string_view entryName) const
{
    const auto parsed = LightningName::parse(entryName);
    return parsed ? parsed->number() : std::nullopt;
}

bool LightningLayout::ownsSubdirectory(std::string_view name) const
{
    return name == kCheckpointsDir || name == ".ckpt-studio";
}

bool LightningLayout::isRunRoot(const DirListing& listing) const
{
    // A logger version folder: checkpoints/ beside Lightning's hparams.yaml or
    // metrics.csv. Or a folder holding a file named like a Lightning epoch.
    const DirEntry* sub = listing.find(kCheckpointsDir);
    if (sub && sub->type == DirEntry::Type::Directory) {
        const DirEntry* hp = listing.find(kHparamsName);
        const DirEntry* mc = listing.find(kMetricsName);
        if ((hp && maybeFile(*hp)) || (mc && maybeFile(*mc)))
            return true;
    }
    return std::any_of(listing.entries.begin(), listing.entries.end(), isEpochName);
}

const Resume* LightningLayout::resume() const
{
    return &LightningResume::instance();
}

std::optional<fs::path> LightningLayout::paramsFile(const fs::path& root) const
{
    std::error_code ec;
    const fs::path path = root / kHparamsName;
    if (fs::is_regular_file(path, ec))
        return path;
    return std::nullopt;
}

Run LightningLayout::loadRun(const fs::path& rootPath) const
{
    Run run;
    const auto listing = beginRun(run, rootPath);
    if (!listing)
        return run;
    const std::string rel = checkpointsRel(*listing);
    const std::string dir = rel.empty() ? run.root : run.root + "/" + rel;
    run.sources.push_back(RunSource{"checkpoints", dir});
    readSources(run, *listing);

    std::optional<DirListing> files = rel.empty() ? listing : std::optional<DirListing>();
    if (!files) {
        auto read = DirReader::list(fs::path(dir));
        if (!read) {
            run.problems.push_back(Problem{ProblemKind::Unreadable,
                                           "cannot list " + read.error().message +
                                               ": check the permissions of the folder.",
                                           dir, std::nullopt});
        } else {
            files = std::move(*read);
        }
    }
    if (files) {
        for (const DirEntry& e : files->entries) {
            if (!isEpochName(e))
                continue;
            if (auto epoch = LightningEpochReader::read(run.root, rel, e.name))
                run.epochs.push_back(std::move(*epoch));
        }
    }
    auto& sorted = run.epochs.edit();
    std::sort(sorted.begin(), sorted.end(), [](const Epoch& a, const Epoch& b) {
        return a.number != b.number ? a.number < b.number : a.dir < b.dir;
    });
    // The same number from two names ("epoch=3.ckpt", "model-epoch=3.ckpt"): the first stays.
    for (std::size_t i = 1; i < run.epochs.size();) {
        if (run.epochs[i].number != run.epochs[i - 1].number) {
            ++i;
            continue;
        }
        const std::string path = run.pathOf(run.epochs[i]);
        run.problems.push_back(Problem{ProblemKind::NameCollision,
                                       path + " is the same epoch/step as " +
                                           run.pathOf(run.epochs[i - 1]) +
                                           ": only the first is shown; remove or rename the "
                                           "other.",
                                       path, run.epochs[i].number});
        run.epochs.erase(run.epochs.begin() + static_cast<std::ptrdiff_t>(i));
    }
    reportCollisions(run);
    reloadLinks(run);
    return run;
}

std::optional<Epoch> LightningLayout::loadEpoch(const Run& run, int number) const
{
    const std::string rel = relOf(run);
    if (const Epoch* known = run.findEpoch(number))
        if (auto epoch = LightningEpochReader::read(run.root, rel, fileNameOf(*known)))
            if (epoch->number == number)
                return epoch;
    auto listing = DirReader::list(fs::path(checkpointsPath(run)));
    if (!listing)
        return std::nullopt;
    std::vector<std::string> names;
    for (const DirEntry& e : listing->entries)
        if (maybeFile(e) && epochNumberOf(e.name) == number)
            names.push_back(e.name);
    std::sort(names.begin(), names.end());
    for (const auto& n : names)
        if (auto epoch = LightningEpochReader::read(run.root, rel, n))
            return epoch;
    return std::nullopt;
}

void LightningLayout::reloadLinks(Run& run) const
{
    std::erase_if(run.problems, [](const Problem& p) {
        return p.kind == ProblemKind::DanglingLink || p.kind == ProblemKind::LinkOutsideRun ||
               p.kind == ProblemKind::LinkToMissingEpoch;
    });
    const std::string path = checkpointsPath(run) + "/" + std::string(kLastName);
    struct stat st = {};
    if (::lstat(path.c_str(), &st) != 0) {
        run.setLink("last", std::nullopt);
        return;
    }
    RunLink link;
    link.name = "last";
    link.path = path;
    if (!S_ISLNK(st.st_mode)) {
        // Lightning's save_last copy: a checkpoint of its own, no pointer.
        link.symlink = false;
        run.setLink("last", link);
        return;
    }
    char buf[4096];
    const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf - 1);
    link.target = n > 0 ? std::string(buf, static_cast<std::size_t>(n)) : std::string();
    const fs::path target(link.target);
    const bool inside = target.is_relative() && target.parent_path().empty();
    const auto number = epochNumberOf(target.filename().string());
    if (inside && number && run.findEpoch(*number)) {
        link.epoch = number;
    } else if (target.is_absolute() && target.parent_path() == fs::path(checkpointsPath(run)) &&
               number && run.findEpoch(*number)) {
        link.epoch = number;
    } else {
        struct stat ts = {};
        const bool exists = ::stat(path.c_str(), &ts) == 0;
        ProblemKind kind = ProblemKind::LinkOutsideRun;
        std::string what = ", which is not an epoch file of this run";
        if (!exists && number && inside) {
            kind = ProblemKind::LinkToMissingEpoch;
            what = ", an epoch file that is gone";
        } else if (!exists) {
            kind = ProblemKind::DanglingLink;
            what = ", which does not exist";
        }
        run.problems.push_back(Problem{kind,
                                       path + " points to " + link.target + what +
                                           ": resuming from last.ckpt would not use this run's "
                                           "newest checkpoint.",
                                       path, std::nullopt});
    }
    run.setLink("last", link);
}

std::vector<std::string> LightningLayout::sourceCandidates(const Run& run) const
{
    std::vector<std::string> out;
    for (const auto& [kind, file] : kSources)
        out.push_back(run.root + "/" + std::string(file));
    return out;
}

void LightningLayout::reloadSources(Run& run) const
{
    auto listing = DirReader::list(fs::path(run.root));
    readSources(run, listing ? *listing : DirListing{fs::path(run.root), {}});
}

MetricHistory LightningLayout::history(const Run& run) const
{
    std::vector<HistoryFragment> fragments;
    fragments.push_back(EpochHistory::fromEpochs(run.epochs, run.root));
    const std::string csv = run.sourcePath("metrics_csv");
    if (!csv.empty()) {
        // Rows are keyed like the epochs: by step when the run's files name steps.
        const bool bySteps = std::any_of(run.epochs.begin(), run.epochs.end(),
                                         [](const Epoch& e) { return e.step.has_value(); });
        fragments.push_back(LightningMetricsCsv::read(csv, bySteps));
    }
    return HistoryBuilder::merge(std::move(fragments));
}

} // namespace ckpt
