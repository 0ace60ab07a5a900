#include "candle/CandleLayout.h"

#include "candle/CandleBestCheck.h"
#include "candle/CandleConfigFile.h"
#include "candle/CandleEpochReader.h"
#include "candle/CandleHistory.h"
#include "candle/CandleLinks.h"
#include "candle/CandleResume.h"
#include "io/AtomicFile.h"
#include "layout/DirReader.h"
#include "layout/UniqueFd.h"
#include "liveness/Liveness.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <iterator>
#include <sys/stat.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

bool isRegularFile(const std::string& path)
{
    struct stat st = {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// ckpt.log and friends sit at the root (2023+ layout) or in save/ above
// save/ckpts (older ones); training.log usually in the output folder above that.
std::string findUpwards(const std::string& root, const DirListing& rootListing,
                        std::string_view name)
{
    if (const DirEntry* e = rootListing.find(name); e && e->type != DirEntry::Type::Directory)
        return root + "/" + std::string(name);
    fs::path dir(root);
    for (int up = 0; up < 2 && dir.has_relative_path(); ++up) {
        dir = dir.parent_path();
        const std::string candidate = (dir / name).string();
        if (isRegularFile(candidate))
            return candidate;
    }
    return {};
}

constexpr std::string_view kWork = "work";

// The history sources CANDLE runs have, by kind (the JSON key) and file name.
constexpr std::pair<std::string_view, std::string_view> kSources[] = {
    {CandleLayout::kCkptLog, "ckpt.log"},
    {CandleLayout::kTrainingLog, "training.log"},
    {CandleLayout::kHistoryTxt, "history.txt"},
};

// Each source where findUpwards finds it, or the root's when it is nowhere.
void readSources(Run& run, const DirListing& rootListing)
{
    std::erase_if(run.sources, [](const RunSource& s) {
        return std::any_of(std::begin(kSources), std::end(kSources),
                           [&](const auto& known) { return s.kind == known.first; });
    });
    for (const auto& [kind, file] : kSources)
        run.sources.push_back(
            RunSource{std::string(kind), findUpwards(run.root, rootListing, file)});
}

// work/ is where CANDLE writes the epoch being saved. Whether that is a save
// under way or an interrupted one needs evidence: Liveness::settle decides.
void noteWorkDir(Run& run, const DirListing& listing)
{
    const DirEntry* work = listing.find(kWork);
    if (work && work->type == DirEntry::Type::Directory)
        run.inProgress.push_back(InProgressItem{run.root + "/work", std::nullopt});
}

void checkBest(Run& run)
{
    if (auto problem = CandleBestCheck::check(run))
        run.problems.push_back(std::move(*problem));
}

} // namespace

const CandleLayout& CandleLayout::instance()
{
    static const CandleLayout layout;
    return layout;
}

const Layout& layouts::candle()
{
    return CandleLayout::instance();
}

WatchHints CandleLayout::watchHints() const
{
    // Epochs are renamed in from work/ complete; ckpt-info.json is written last.
    return WatchHints{"epochs", "ckpt-info.json"};
}

std::optional<int> CandleLayout::epochNumberOf(std::string_view entryName) const
{
    return parseEpochDirName(entryName);
}

bool CandleLayout::isInProgressName(std::string_view entryName) const
{
    return entryName == kWork;
}

bool CandleLayout::refreshInProgress(Run& run, const DirListing& rootListing) const
{
    const DirEntry* work = rootListing.find(kWork);
    const bool live = work && work->type == DirEntry::Type::Directory;
    if (live == run.saveInProgress())
        return false;
    run.inProgress.clear();
    if (live)
        noteWorkDir(run, rootListing); // interrupted or not: the LivenessMonitor decides
    else
        std::erase_if(run.problems,
                      [](const Problem& p) { return p.kind == ProblemKind::InterruptedSave; });
    return true;
}

const Resume* CandleLayout::resume() const
{
    return &CandleResume::instance();
}

MetricHistory CandleLayout::history(const Run& run) const
{
    return CandleHistory::build(run);
}

fs::path CandleLayout::auditLogPath(const fs::path& root) const
{
    const fs::path own = root / "ckpt.log";
    struct stat st = {};
    if (::stat(own.c_str(), &st) == 0)
        return own;
    const fs::path above = root.parent_path() / "ckpt.log";
    if (!root.parent_path().empty() && ::stat(above.c_str(), &st) == 0 && S_ISREG(st.st_mode))
        return above;
    return own;
}

std::string CandleLayout::epochDirName(int epoch)
{
    char name[16];
    std::snprintf(name, sizeof name, "%03d", epoch);
    return name;
}

fs::path CandleLayout::epochDir(const fs::path& root, int epoch)
{
    return root / "epochs" / epochDirName(epoch);
}

std::optional<int> CandleLayout::parseEpochDirName(std::string_view name)
{
    if (!DirReader::isDigits(name) || name.size() > 9)
        return std::nullopt;
    int n = 0;
    for (char c : name)
        n = n * 10 + (c - '0');
    return n;
}

bool CandleLayout::ownsSubdirectory(std::string_view name) const
{
    // .ckpt-studio holds our own ops journal and lock (RunLock), never runs.
    return name == "epochs" || name == kWork || name == ".ckpt-studio";
}

bool CandleLayout::isRunRoot(const DirListing& listing) const
{
    const DirEntry* epochs = listing.find("epochs");
    // epochs/ may be a symlink to scratch storage: read through it (it is only
    // listed here, never walked).
    if (!epochs ||
        (epochs->type != DirEntry::Type::Directory && epochs->type != DirEntry::Type::Symlink))
        return false;
    // A first save that was interrupted leaves epochs/ empty and work/ behind.
    if (const DirEntry* work = listing.find("work");
        work && work->type == DirEntry::Type::Directory)
        return true;
    const std::string epochsPath = (listing.dir / "epochs").string();
    bool found = false;
    const int err = DirReader::containsEntry(
        epochsPath.c_str(),
        [](const DirEntry& e) {
            return e.type != DirEntry::Type::File && parseEpochDirName(e.name).has_value();
        },
        found);
    // Unreadable: claim it so that loadRun reports the problem rather than hide the run.
    return found || err == EACCES || err == EPERM;
}

std::optional<fs::path> CandleLayout::paramsFile(const fs::path& root) const
{
    return CandleConfigFile::besideRun(root);
}

Run CandleLayout::loadRun(const fs::path& rootPath) const
{
    Run run;
    const auto listing = beginRun(run, rootPath);
    if (!listing)
        return run;
    noteWorkDir(run, *listing);

    const std::string epochsPath = run.root + "/epochs";
    UniqueFd epochsFd(::open(epochsPath.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    std::vector<DirEntry> entries;
    int err = epochsFd.valid() ? 0 : errno;
    if (err == 0) {
        // listAt takes its own descriptor: the one we keep serves the openat calls.
        err = DirReader::listAt(epochsFd.get(), ".", entries);
    }
    if (err != 0 && err != ENOENT) {
        run.problems.push_back(Problem{ProblemKind::Unreadable,
                                       "cannot list " + osError(epochsPath, err) +
                                           ": check the permissions of the epochs folder.",
                                       epochsPath, std::nullopt});
    }
    // Read in epoch order (by number, then name: "5" before "005"), so that the
    // epochs need no sorting afterwards; the listing is small to sort, an Epoch is not.
    std::vector<std::pair<int, const DirEntry*>> numbered;
    numbered.reserve(entries.size());
    for (const DirEntry& e : entries) {
        if (e.type == DirEntry::Type::File)
            continue;
        if (const auto number = parseEpochDirName(e.name))
            numbered.emplace_back(*number, &e);
    }
    std::sort(numbered.begin(), numbered.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second->name < b.second->name;
    });
    // Read in place: an Epoch is a dozen members to move. Into the epochs of
    // a run this thread rendered and dropped before, when there is one
    // (EpochList::recycle): their room is reused.
    EpochList::Vector epochs = EpochList::takeRecycled();
    epochs.reserve(numbered.size());
    std::size_t count = 0;
    // A batch at a time: the file system asked for every epoch of the batch
    // (CandleEpochReader::readAhead), then each read from what it said.
    constexpr std::size_t kBatch = 32;
    thread_local std::array<CandleEpochReader::Ahead, kBatch> ahead;
    thread_local std::array<std::string, kBatch> texts;
    for (std::size_t from = 0; from < numbered.size(); from += kBatch) {
        const std::size_t to = std::min(numbered.size(), from + kBatch);
        for (std::size_t i = from; i < to; ++i) {
            const DirEntry& e = *numbered[i].second;
            if (e.type == DirEntry::Type::Symlink &&
                DirReader::typeAt(epochsFd.get(), e.name.c_str()) != DirEntry::Type::Directory) {
                numbered[i].second = nullptr; // not an epoch directory: skipped
                continue;
            }
            CandleEpochReader::readAhead(epochsFd.get(), e.name, ahead[i - from], texts[i - from]);
        }
        for (std::size_t i = from; i < to; ++i) {
            if (!numbered[i].second)
                continue;
            Epoch& epoch = count < epochs.size() ? epochs[count] : epochs.emplace_back();
            epoch.clear();
            if (CandleEpochReader::read(epochsFd.get(), epochsPath, numbered[i].second->name,
                                        numbered[i].first, epoch, &ahead[i - from]))
                ++count;
        }
    }
    epochs.erase(epochs.begin() + static_cast<std::ptrdiff_t>(count), epochs.end());
    run.epochs = std::move(epochs);

    CandleLinks::readInto(run);
    checkBest(run);

    readSources(run, *listing);
    Liveness::settle(run);
    return run;
}

std::optional<Epoch> CandleLayout::loadEpoch(const Run& run, int number) const
{
    const std::string epochsPath = run.root + "/epochs";
    UniqueFd epochsFd(::open(epochsPath.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!epochsFd.valid())
        return std::nullopt;
    // The directory as loaded before ("12" instead of "012" is rare but real), else CANDLE's name.
    std::string dirName = epochDirName(number);
    if (const Epoch* known = run.findEpoch(number))
        dirName = fs::path(known->dir).filename().string();
    auto epoch = CandleEpochReader::read(epochsFd.get(), epochsPath, dirName, number);
    if (!epoch && dirName != epochDirName(number))
        epoch = CandleEpochReader::read(epochsFd.get(), epochsPath, epochDirName(number), number);
    return epoch;
}

std::vector<std::string> CandleLayout::sourceCandidates(const Run& run) const
{
    // Every place findUpwards looks, so that a log created in any of them is seen.
    std::vector<std::string> out;
    for (const auto& [kind, file] : kSources) {
        fs::path dir(run.root);
        out.push_back((dir / file).string());
        for (int up = 0; up < 2 && dir.has_relative_path(); ++up) {
            dir = dir.parent_path();
            out.push_back((dir / file).string());
        }
    }
    return out;
}

void CandleLayout::reloadSources(Run& run) const
{
    auto listing = DirReader::list(fs::path(run.root));
    readSources(run, listing ? *listing : DirListing{fs::path(run.root), {}});
}

void CandleLayout::reloadLinks(Run& run) const
{
    CandleLinks::readInto(run);
    checkBest(run);
}

} // namespace ckpt
