#include "caffe2/Caffe2Layout.h"

#include "caffe2/Caffe2MiniDb.h"
#include "history/LocalTime.h"
#include "io/RegularFile.h"
#include "layout/DirReader.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <sys/stat.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

bool maybeFile(const DirEntry& e)
{
    return e.type == DirEntry::Type::File || e.type == DirEntry::Type::Symlink;
}

bool endsWith(std::string_view s, std::string_view tail)
{
    return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// The folder's dbs: epoch -> node -> file name; all nodes seen.
struct Dbs
{
    std::map<int, std::map<std::string, std::string>> byEpoch;
    std::set<std::string> nodes;

    explicit Dbs(const std::vector<DirEntry>& entries)
    {
        for (const DirEntry& e : entries) {
            if (!maybeFile(e))
                continue;
            if (auto db = Caffe2Layout::parseDbName(e.name)) {
                byEpoch[db->second][db->first] = e.name;
                nodes.insert(db->first);
            }
        }
    }
    bool complete(int epoch) const
    {
        auto it = byEpoch.find(epoch);
        return it != byEpoch.end() && it->second.size() == nodes.size();
    }
};

Epoch buildEpoch(const std::string& root, int number,
                 const std::map<std::string, std::string>& files)
{
    Epoch epoch;
    epoch.number = number;
    epoch.metadata.set("nodes", std::to_string(files.size()));
    for (const auto& [node, name] : files) {
        EpochFile f;
        f.name = name;
        f.model = epoch.files.empty();
        struct stat st = {};
        if (::stat((root + "/" + name).c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
            f.present = true;
            f.bytes = static_cast<std::uint64_t>(st.st_size);
            f.mtimeNs = std::int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
            f.inode = st.st_ino;
        }
        epoch.files.push_back(std::move(f));
    }
    std::int64_t newest = 0;
    for (const auto& f : epoch.files)
        newest = std::max(newest, f.mtimeNs);
    if (newest != 0)
        epoch.savedAt = LocalTime::formatNanoseconds(newest);
    return epoch;
}

void collectIncomplete(const std::string& root, const Dbs& dbs, Run& run)
{
    for (const auto& [number, files] : dbs.byEpoch) {
        if (files.size() == dbs.nodes.size())
            continue;
        std::string missing;
        for (const auto& node : dbs.nodes)
            if (!files.count(node))
                missing += (missing.empty() ? "" : ", ") + node + "." + std::to_string(number);
        for (const auto& [node, name] : files)
            run.inProgress.push_back(InProgressItem{root + "/" + name, number});
        run.problems.push_back(Problem{
            ProblemKind::InterruptedSave,
            root + ": epoch " + std::to_string(number) + " is incomplete: no db " + missing +
                " (still being written by that node, or lost): it is not a finished epoch.",
            root + "/" + files.begin()->second, number});
    }
    std::sort(run.inProgress.begin(), run.inProgress.end(),
              [](const InProgressItem& a, const InProgressItem& b) { return a.path < b.path; });
}

} // namespace

const Caffe2Layout& Caffe2Layout::instance()
{
    static const Caffe2Layout layout;
    return layout;
}

const Layout& layouts::caffe2()
{
    return Caffe2Layout::instance();
}

std::optional<std::pair<std::string, int>> Caffe2Layout::parseDbName(std::string_view name)
{
    if (name.empty() || name.front() == '.')
        return std::nullopt;
    const auto dot = name.rfind('.');
    if (dot == std::string_view::npos || dot == 0)
        return std::nullopt;
    const std::string_view digits = name.substr(dot + 1);
    if (!DirReader::isDigits(digits) || digits.size() > 9)
        return std::nullopt;
    const std::string_view node = name.substr(0, dot);
    // Rotated logs, core dumps and numbered data files are not dbs.
    static constexpr std::array<std::string_view, 6> kNotNodes = {"core",   "log",   "messages",
                                                                  "syslog", "nohup", "stdout"};
    static constexpr std::array<std::string_view, 12> kNotExt = {".log",  ".txt",  ".out", ".err",
                                                                 ".gz",   ".json", ".csv", ".h5",
                                                                 ".ckpt", ".zip",  ".tar", ".so"};
    if (std::find(kNotNodes.begin(), kNotNodes.end(), node) != kNotNodes.end())
        return std::nullopt;
    for (auto ext : kNotExt)
        if (endsWith(node, ext))
            return std::nullopt;
    int n = 0;
    for (char c : digits)
        n = n * 10 + (c - '0');
    return std::make_pair(std::string(node), n);
}

std::optional<int> Caffe2Layout::epochNumberOf(std::string_view entryName) const
{
    if (auto db = parseDbName(entryName))
        return db->second;
    return std::nullopt;
}

WatchHints Caffe2Layout::watchHints() const
{
    WatchHints hints;
    hints.epochFiles = true;
    return hints;
}

bool Caffe2Layout::isRunRoot(const DirListing& listing) const
{
    // The names alone claim too much (/etc/ssl/certs is 290 "<hash>.0"
    // files): a few of them must read as minidbs too. Only folders with such
    // names pay for it, one small read each.
    constexpr int kSniffed = 4;
    constexpr std::size_t kHead = 8 + 4000 + 1; // the lengths, the longest key sniff takes, a byte
    int tried = 0;
    for (const DirEntry& e : listing.entries) {
        if (!maybeFile(e) || !parseDbName(e.name))
            continue;
        auto head = RegularFile::readHead(listing.dir / e.name, kHead);
        if (head && Caffe2MiniDb::sniff(*head, e.name))
            return true;
        if (++tried == kSniffed)
            break;
    }
    return false;
}

Run Caffe2Layout::loadRun(const fs::path& rootPath) const
{
    Run run;
    const auto listing = beginRun(run, rootPath);
    if (!listing)
        return run;
    const Dbs dbs(listing->entries);
    for (const auto& [number, files] : dbs.byEpoch)
        if (files.size() == dbs.nodes.size())
            run.epochs.push_back(buildEpoch(run.root, number, files));
    collectIncomplete(run.root, dbs, run);
    return run;
}

std::optional<Epoch> Caffe2Layout::loadEpoch(const Run& run, int number) const
{
    auto listing = DirReader::list(fs::path(run.root));
    if (!listing)
        return std::nullopt;
    const Dbs dbs(listing->entries);
    if (!dbs.complete(number))
        return std::nullopt;
    return buildEpoch(run.root, number, dbs.byEpoch.at(number));
}

bool Caffe2Layout::refreshInProgress(Run& run, const DirListing& rootListing) const
{
    Run now;
    collectIncomplete(run.root, Dbs(rootListing.entries), now);
    return replaceInProgress(run, std::move(now));
}

} // namespace ckpt
