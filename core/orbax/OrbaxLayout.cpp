#include "orbax/OrbaxLayout.h"

#include "layout/DirReader.h"
#include "orbax/OrbaxResume.h"
#include "orbax/OrbaxStepReader.h"

#include <algorithm>
#include <fcntl.h>
#include <sys/stat.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

bool maybeDirectory(const DirEntry& e)
{
    return e.type == DirEntry::Type::Directory || e.type == DirEntry::Type::Symlink;
}

bool isDirectory(const std::string& path)
{
    struct stat st = {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The tmp folders of a listing, as in-progress items with their problems.
void collectInProgress(const OrbaxLayout& layout, const std::string& root,
                       const std::vector<DirEntry>& entries, Run& run)
{
    for (const DirEntry& e : entries) {
        if (!maybeDirectory(e) || !layout.isInProgressName(e.name))
            continue;
        const std::string path = root + "/" + e.name;
        const std::string stepText = e.name.substr(0, e.name.find(OrbaxLayout::kTmpMark));
        run.inProgress.push_back(InProgressItem{path, OrbaxLayout::parseStepName(stepText)});
        run.problems.push_back(Problem{
            ProblemKind::InterruptedSave,
            path + " is an Orbax save in progress, or left over from an interrupted one: it is "
                   "not a finished checkpoint. If no training is running, delete it.",
            path, run.inProgress.back().epoch});
    }
    std::sort(run.inProgress.begin(), run.inProgress.end(),
              [](const InProgressItem& a, const InProgressItem& b) { return a.path < b.path; });
}

} // namespace

const OrbaxLayout& OrbaxLayout::instance()
{
    static const OrbaxLayout layout;
    return layout;
}

const Layout& layouts::orbax()
{
    return OrbaxLayout::instance();
}

std::optional<int> OrbaxLayout::parseStepName(std::string_view name)
{
    if (name.empty() || name.front() == '.')
        return std::nullopt;
    std::string_view digits = name;
    if (const auto sep = name.rfind('_'); sep != std::string_view::npos) {
        if (sep == 0)
            return std::nullopt;
        digits = name.substr(sep + 1);
    }
    if (!DirReader::isDigits(digits) || digits.size() > 9)
        return std::nullopt;
    int n = 0;
    for (char c : digits)
        n = n * 10 + (c - '0');
    return n;
}

std::optional<int> OrbaxLayout::epochNumberOf(std::string_view entryName) const
{
    if (isInProgressName(entryName))
        return std::nullopt;
    return parseStepName(entryName);
}

bool OrbaxLayout::isInProgressName(std::string_view entryName) const
{
    return entryName.find(kTmpMark) != std::string_view::npos && entryName.front() != '.';
}

bool OrbaxLayout::ownsSubdirectory(std::string_view name) const
{
    return epochNumberOf(name) || isInProgressName(name) || name == ".ckpt-studio";
}

bool OrbaxLayout::isRunRoot(const DirListing& listing) const
{
    // A step folder with Orbax's metadata file (at most three looked into), or
    // an Orbax tmp folder: a first save still in progress.
    int looked = 0;
    for (const DirEntry& e : listing.entries) {
        if (!maybeDirectory(e))
            continue;
        if (isInProgressName(e.name))
            return true;
        if (looked < 3 && parseStepName(e.name)) {
            ++looked;
            const std::string meta = (listing.dir / e.name / std::string(kMetadataName)).string();
            struct stat st = {};
            if (::stat(meta.c_str(), &st) == 0 && S_ISREG(st.st_mode))
                return true;
        }
    }
    return false;
}

Run OrbaxLayout::loadRun(const fs::path& rootPath) const
{
    Run run;
    const auto listing = beginRun(run, rootPath);
    if (!listing)
        return run;
    for (const DirEntry& e : listing->entries) {
        if (!maybeDirectory(e))
            continue;
        const auto step = epochNumberOf(e.name);
        if (!step)
            continue;
        if (e.type == DirEntry::Type::Symlink && !isDirectory(run.root + "/" + e.name))
            continue;
        if (auto epoch = OrbaxStepReader::read(run.root, e.name, *step))
            run.epochs.push_back(std::move(*epoch));
    }
    auto& sorted = run.epochs.edit();
    std::sort(sorted.begin(), sorted.end(), [](const Epoch& a, const Epoch& b) {
        return a.number != b.number ? a.number < b.number : a.dir < b.dir;
    });
    // Two folders of one step ("100" and "ckpt_100"): the first stays, the other is a problem.
    for (std::size_t i = 1; i < run.epochs.size();) {
        if (run.epochs[i].number != run.epochs[i - 1].number) {
            ++i;
            continue;
        }
        const std::string path = run.pathOf(run.epochs[i]);
        run.problems.push_back(Problem{ProblemKind::EpochMismatch,
                                       path + " holds step " +
                                           std::to_string(run.epochs[i].number) + " like " +
                                           run.pathOf(run.epochs[i - 1]) +
                                           ": only the first is shown; remove or rename "
                                           "the other.",
                                       path, run.epochs[i].number});
        run.epochs.erase(run.epochs.begin() + static_cast<std::ptrdiff_t>(i));
    }
    collectInProgress(*this, run.root, listing->entries, run);
    return run;
}

std::optional<Epoch> OrbaxLayout::loadEpoch(const Run& run, int number) const
{
    if (const Epoch* known = run.findEpoch(number))
        if (auto epoch = OrbaxStepReader::read(run.root, known->dir, number))
            return epoch;
    auto listing = DirReader::list(fs::path(run.root));
    if (!listing)
        return std::nullopt;
    std::vector<std::string> names;
    for (const DirEntry& e : listing->entries)
        if (maybeDirectory(e) && epochNumberOf(e.name) == number)
            names.push_back(e.name);
    std::sort(names.begin(), names.end());
    for (const auto& n : names)
        if (auto epoch = OrbaxStepReader::read(run.root, n, number))
            return epoch;
    return std::nullopt;
}

bool OrbaxLayout::refreshInProgress(Run& run, const DirListing& rootListing) const
{
    Run now;
    collectInProgress(*this, run.root, rootListing.entries, now);
    return replaceInProgress(run, std::move(now));
}

const Resume* OrbaxLayout::resume() const
{
    return &OrbaxResume::instance();
}

} // namespace ckpt
