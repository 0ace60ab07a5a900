#include "keras/KerasLayout.h"

#include "history/LocalTime.h"
#include "json/JsonText.h"
#include "keras/KerasFileCheck.h"
#include "layout/AbsolutePath.h"
#include "layout/DirReader.h"
#include "layout/UniqueFd.h"

#include <algorithm>
#include <fcntl.h>
#include <nlohmann/json.hpp>

namespace ckpt {

namespace {

constexpr std::size_t kMaxRewrites = 64;

bool maybeFile(const DirEntry& e)
{
    return e.type == DirEntry::Type::File || e.type == DirEntry::Type::Symlink;
}

std::vector<std::string> namesOf(const std::map<std::string, std::uint64_t>& files)
{
    std::vector<std::string> names;
    names.reserve(files.size());
    for (const auto& [name, inode] : files)
        names.push_back(name);
    return names;
}

// The epoch of one file, read from disk (the name gives the rest).
// `rootFd`: an open descriptor of `root`, or AT_FDCWD; `templateJson`: jsonText(t.text).
std::optional<Epoch> readEpoch(const std::string& root, int rootFd, const KerasTemplate& t,
                               const std::string& templateJson, const KerasName& n)
{
    KerasFileCheck::Outcome check = KerasFileCheck::checkAt(rootFd, root, n.name);
    if (check.missing)
        return std::nullopt; // gone since the listing: not an epoch any more
    Epoch epoch;
    epoch.number = n.epoch;
    epoch.files.push_back(check.file);
    epoch.recorded = check.whole;
    if (check.file.present)
        epoch.savedAt = LocalTime::formatNanoseconds(check.file.mtimeNs);
    for (const auto& [metric, value] : n.metrics)
        epoch.setMetric(metric, value);
    // The record in one piece (set() would rebuild it for each key).
    const std::string number = std::to_string(n.epoch);
    const std::string batch = n.batch ? std::to_string(*n.batch) : std::string();
    KeyValues::Entry record[4] = {{"template", templateJson}, {"epoch", number}};
    std::size_t entries = 2;
    if (n.batch)
        record[entries++] = {"batch", batch};
    if (t.bestOnly)
        record[entries++] = {"save_best_only", "true"};
    epoch.metadata.assignDistinct(record, entries);
    if (!check.unreadable && check.whole)
        return epoch;
    const std::string path = root + "/" + n.name;
    if (check.unreadable) {
        epoch.problems.push_back(
            Problem{ProblemKind::Unreadable,
                    "cannot read " + check.problem + ": check the permissions of the file.", path,
                    std::nullopt});
    } else if (!check.whole) {
        epoch.problems.push_back(
            Problem{ProblemKind::InterruptedSave,
                    check.problem +
                        ". Keras writes checkpoints in place: this is a save in progress, or one "
                        "cut short. If no training is running, delete the file or save it again.",
                    path, std::nullopt});
    }
    return epoch;
}

void numberEpochs(std::vector<Epoch>& epochs, const KerasTemplate& t, Run& run)
{
    if (t.hasBatch) {
        // (epoch, batch) order; a unique number per file, the batch as the step.
        int next = 0;
        for (Epoch& e : epochs) {
            e.number = ++next;
            if (auto batch = e.metadata.number("batch"))
                e.step = std::int64_t(*batch);
        }
    }
    for (Epoch& e : epochs)
        for (Problem& p : e.problems)
            p.epoch = e.number;
    // Two files of one epoch (a fit restarted over the same folder): the first stays.
    for (std::size_t i = 1; i < epochs.size();) {
        if (epochs[i].number != epochs[i - 1].number) {
            ++i;
            continue;
        }
        const std::string path = run.root + "/" + epochs[i].files[0].name;
        run.problems.push_back(
            Problem{ProblemKind::EpochMismatch,
                    path + " is epoch " + std::to_string(epochs[i].number) + " like " + run.root +
                        "/" + epochs[i - 1].files[0].name +
                        ": only the first is shown; was training restarted into the same folder?",
                    path, epochs[i].number});
        epochs.erase(epochs.begin() + std::ptrdiff_t(i));
    }
    run.epochs = std::move(epochs);
}

} // namespace

const KerasLayout& KerasLayout::keras()
{
    static const KerasLayout layout(KerasFlavor::Keras);
    return layout;
}

const KerasLayout& KerasLayout::synalinks()
{
    static const KerasLayout layout(KerasFlavor::Synalinks);
    return layout;
}

const Layout& layouts::keras()
{
    return KerasLayout::keras();
}

const Layout& layouts::synalinks()
{
    return KerasLayout::synalinks();
}

std::string_view KerasLayout::name() const
{
    return m_flavor == KerasFlavor::Keras ? "keras" : "synalinks";
}

WatchHints KerasLayout::watchHints() const
{
    WatchHints hints;
    hints.epochFiles = true;
    hints.numbersFromListing = true;
    return hints;
}

bool KerasLayout::isRunRoot(const DirListing& listing) const
{
    std::vector<std::string> names;
    for (const DirEntry& e : listing.entries)
        if (maybeFile(e) && !KerasTemplates::extensionOf(e.name, m_flavor).empty())
            names.push_back(e.name);
    if (names.empty())
        return false;
    return !KerasTemplates::recover(names, m_flavor).empty();
}

Run KerasLayout::build(const std::string& root, const std::map<std::string, std::uint64_t>& files,
                       const Run* before) const
{
    Run run;
    run.root = root;
    run.layout = std::string(name());
    const auto templates = KerasTemplates::recover(namesOf(files), m_flavor);
    if (templates.empty())
        return run;
    const KerasTemplate& main = templates.front();
    for (std::size_t i = 1; i < templates.size(); ++i) {
        const KerasTemplate& other = templates[i];
        const std::string first = root + "/" + other.files.front().name;
        run.problems.push_back(
            Problem{ProblemKind::EpochMismatch,
                    std::to_string(other.files.size()) + " files named " + other.text + " (" +
                        first + ", ...) beside the " + main.text +
                        " checkpoints: another callback writes into this folder; only " +
                        main.text + " is shown. Give each ModelCheckpoint a folder of its own.",
                    first, std::nullopt});
    }
    std::map<std::string, const Epoch*> known;
    if (before)
        for (const Epoch& e : before->epochs)
            if (!e.files.empty())
                known[e.files[0].name] = &e;
    std::vector<Epoch> epochs;
    epochs.reserve(main.files.size());
    const UniqueFd rootFd(::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    const std::string templateJson = jsonText(main.text);
    for (const KerasName& n : main.files) {
        auto k = known.find(n.name);
        const auto inode = files.find(n.name);
        if (k != known.end() && k->second->hasRecord() && inode != files.end() &&
            k->second->files[0].inode == inode->second) {
            // Unchanged since it was read whole: kept without opening it again (an
            // overwrite in place is seen by the watcher's file watch or rescan).
            Epoch e = *k->second;
            e.number = n.epoch;
            e.step.reset();
            epochs.push_back(std::move(e));
        } else if (auto e = readEpoch(root, rootFd.valid() ? rootFd.get() : AT_FDCWD, main,
                                      templateJson, n)) {
            epochs.push_back(std::move(*e));
        }
    }
    numberEpochs(epochs, main, run);
    return run;
}

Run KerasLayout::loadRun(const std::filesystem::path& rootPath) const
{
    Run run;
    const auto listing = beginRun(run, rootPath);
    if (!listing)
        return run;
    // Inodes are not in a DirListing; a fresh load needs none.
    std::map<std::string, std::uint64_t> files;
    for (const DirEntry& e : listing->entries)
        if (maybeFile(e) && !KerasTemplates::extensionOf(e.name, m_flavor).empty())
            files.emplace(e.name, 0);
    return build(run.root, files, nullptr);
}

Run KerasLayout::reloadRun(const Run& before) const
{
    std::map<std::string, std::uint64_t> files;
    const int err = DirReader::forEach(before.root.c_str(), [&](DirEntry& e, std::uint64_t inode) {
        if (maybeFile(e) && !KerasTemplates::extensionOf(e.name, m_flavor).empty())
            files.emplace(e.name, inode);
        return true;
    });
    if (err != 0)
        return loadRun(before.root); // says why, as a problem
    return build(before.root, files, &before);
}

std::optional<Epoch> KerasLayout::loadEpoch(const Run& run, int number) const
{
    const Epoch* known = run.findEpoch(number);
    if (known && !known->files.empty()) {
        // The name already gave the template, epoch, batch and metrics: read the file alone.
        Epoch epoch = *known;
        KerasFileCheck::Outcome check = KerasFileCheck::check(run.root, known->files[0].name);
        if (check.missing)
            return std::nullopt;
        epoch.files = {check.file};
        epoch.recorded = check.whole;
        epoch.problems.clear();
        if (check.file.present)
            epoch.savedAt = LocalTime::formatNanoseconds(check.file.mtimeNs);
        const std::string path = run.root + "/" + known->files[0].name;
        if (!check.whole)
            epoch.problems.push_back(Problem{
                check.unreadable ? ProblemKind::Unreadable : ProblemKind::InterruptedSave,
                check.problem + (check.unreadable
                                     ? ": check the permissions of the file."
                                     : ". Keras writes checkpoints in place: this is a save in "
                                       "progress, or one cut short. If no training is running, "
                                       "delete the file or save it again."),
                path, number});
        return epoch;
    }
    const Run fresh = loadRun(run.root);
    if (const Epoch* e = fresh.findEpoch(number))
        return *e;
    return std::nullopt;
}

void KerasLayout::carryOver(const Epoch& before, Epoch& after) const
{
    if (before.files.empty() || after.files.empty() || before.files[0].name != after.files[0].name)
        return;
    nlohmann::json rewrites = nlohmann::json::array();
    if (auto text = before.metadata.get("rewrites")) {
        auto parsed = nlohmann::json::parse(*text, nullptr, false);
        if (parsed.is_array())
            rewrites = std::move(parsed);
    }
    const EpochFile& was = before.files[0];
    const EpochFile& now = after.files[0];
    // A whole earlier version replaced by another write: one more rewrite seen.
    if (was.present && before.hasRecord() &&
        (was.mtimeNs != now.mtimeNs || was.bytes != now.bytes || was.inode != now.inode))
        rewrites.push_back(before.savedAt);
    while (rewrites.size() > kMaxRewrites)
        rewrites.erase(rewrites.begin());
    if (!rewrites.empty())
        after.metadata.set("rewrites", rewrites.dump());
}

} // namespace ckpt
