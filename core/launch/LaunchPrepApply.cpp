// LaunchPrep::apply and LaunchPrep::undo: the half of LaunchPrep that changes
// the disk (LaunchPrep.cpp plans; this file carries plans out and back).
#include "io/AtomicFile.h"
#include "io/RegularFile.h"
#include "launch/CommandTemplate.h"
#include "launch/LaunchPrep.h"
#include "launch/LaunchRecord.h"
#include "layout/Layout.h"
#include "layout/Resume.h"
#include "ops/Relinker.h"
#include "ops/RunLock.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

// Hard-links `from` as `to` or, across file systems or where links are
// refused, copies it.
Status linkFile(const fs::path& from, const fs::path& to)
{
    if (::link(from.c_str(), to.c_str()) == 0)
        return {};
    if (errno != EXDEV && errno != EPERM && errno != EMLINK)
        return Error{"cannot link " + osError(to, errno), to.string()};
    std::error_code ec;
    fs::copy_file(from, to, fs::copy_options::none, ec);
    if (ec)
        return Error::at(to.string(), "cannot copy " + from.string() + ": " + ec.message());
    return {};
}

// Hard-links (or copies, as linkFile) every file below `from` into the new
// directory `to`; an epoch that is one file (a Lightning .ckpt) becomes `to`.
Status linkTree(const fs::path& from, const fs::path& to)
{
    std::error_code ec;
    struct stat top
    {};
    if (::stat(from.c_str(), &top) == 0 && S_ISREG(top.st_mode)) {
        fs::create_directories(to.parent_path(), ec);
        if (ec)
            return Error::at(to.parent_path().string(),
                             "cannot create the folder: " + ec.message());
        return linkFile(from, to);
    }
    fs::create_directories(to, ec);
    if (ec)
        return Error::at(to.string(), "cannot create the folder: " + ec.message());
    for (auto it = fs::recursive_directory_iterator(from, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
        const fs::path rel = it->path().lexically_relative(from);
        const fs::path target = to / rel;
        struct stat st
        {};
        if (::lstat(it->path().c_str(), &st) != 0)
            return Error{osError(it->path(), errno), it->path().string()};
        if (S_ISDIR(st.st_mode)) {
            fs::create_directories(target, ec);
            if (ec)
                return Error::at(target.string(), "cannot create the folder: " + ec.message());
            continue;
        }
        if (!S_ISREG(st.st_mode))
            return Error::at(it->path().string(), "is " + RegularFile::kindOf(st.st_mode) +
                                                      ", not a regular file: a "
                                                      "fork links files only");
        if (Status linked = linkFile(it->path(), target); !linked)
            return linked;
    }
    if (ec)
        return Error::at(from.string(), "cannot list: " + ec.message());
    return {};
}

// A symlink `link` -> `text`, created aside and renamed into place.
Status placeSymlink(const fs::path& link, const std::string& text)
{
    const fs::path aside = link.parent_path() / ("." + link.filename().string() + ".new");
    ::unlink(aside.c_str());
    if (::symlink(text.c_str(), aside.c_str()) != 0)
        return Error{"cannot create " + osError(aside, errno), aside.string()};
    if (::rename(aside.c_str(), link.c_str()) != 0) {
        const int err = errno;
        ::unlink(aside.c_str());
        return Error{"cannot place " + osError(link, err), link.string()};
    }
    return {};
}

Status copyIfPresent(const std::string& source, const fs::path& dir)
{
    if (source.empty())
        return {};
    std::error_code ec;
    if (!fs::is_regular_file(source, ec))
        return {};
    fs::copy_file(source, dir / fs::path(source).filename(), fs::copy_options::none, ec);
    if (ec)
        return Error::at(source, "cannot keep a copy in " + dir.string() + ": " + ec.message());
    return {};
}

// The edited configuration, a new file in `root`'s configs folder; the plan's
// argv follows its name. With `staging` (a fork made aside) the file is written
// there, at the place that becomes p.runFolder once the folder is renamed in.
Status writeConfig(PreparedLaunch& p, const fs::path& root, const fs::path& staging = {})
{
    LaunchPlan& plan = p.plan;
    const auto aside = [&](const fs::path& x) {
        return staging.empty() ? x : staging / x.lexically_relative(p.runFolder);
    };
    const fs::path dir = aside(ConfigWriter::configsDir(root));
    std::error_code ec;
    p.applied.configsDirMade = !fs::exists(dir, ec);
    // The name the plan showed (the argv and batch script preview hold it).
    auto made = ConfigWriter::writeNew(p.original, p.edits, dir, aside(plan.configFile));
    if (!made) {
        if (p.applied.configsDirMade)
            fs::remove(dir, ec); // only when empty: made by this attempt
        return made.error();
    }
    p.applied.config =
        (staging.empty() ? *made : p.runFolder / made->lexically_relative(staging)).string();
    if (p.applied.config != plan.configFile) {
        plan.configFile = p.applied.config;
        p.values["config"] = plan.configFile;
        auto argv = CommandTemplate(plan.commandTemplate).expand(p.values);
        if (!argv)
            return argv.error();
        plan.argv = std::move(*argv);
    }
    return {};
}

// Removes the fork's folder (made by apply) or, when it existed empty before,
// what apply put in it.
Status removeFork(const PreparedLaunch& p)
{
    std::error_code ec;
    if (!fs::exists(p.runFolder, ec))
        return {};
    if (p.applied.forkFolderMade) {
        fs::remove_all(p.runFolder, ec);
    } else {
        for (const auto& entry : fs::directory_iterator(p.runFolder, ec))
            fs::remove_all(entry.path(), ec);
    }
    if (ec)
        return Error::at(p.runFolder.string(), "cannot remove the fork's folder: " + ec.message());
    return {};
}

// Hidden folders beside `folder` where a fork was being made by a process that
// is gone (killed): what it left is removed before a new attempt.
void removeStaleStaging(const fs::path& folder)
{
    const std::string prefix = "." + folder.filename().string() + ".forking-";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder.parent_path(), ec)) {
        const std::string name = entry.path().filename().string();
        if (!name.starts_with(prefix))
            continue;
        const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
        if (pid > 0 && (::kill(pid_t(pid), 0) == 0 || errno != ESRCH))
            continue; // still being made (or not ours to judge)
        fs::remove_all(entry.path(), ec);
    }
}

// A fork is a new folder, made aside in a hidden folder beside it and renamed
// into place whole: a failure (a full disk say) removes it again and a kill -9
// leaves only the hidden folder, so no half-made run is left for a scan to find.
Status applyFork(PreparedLaunch& p, int from)
{
    std::error_code ec;
    p.applied.forkFolderMade = !fs::exists(p.runFolder, ec); // prepare() allows only an empty one
    fs::create_directories(p.runFolder.parent_path(), ec);
    if (ec)
        return Error::at(p.runFolder.string(), "cannot create the fork's folder: " + ec.message());
    removeStaleStaging(p.runFolder);
    const fs::path staging = p.runFolder.parent_path() / ("." + p.runFolder.filename().string() +
                                                          ".forking-" + std::to_string(::getpid()));
    fs::remove_all(staging, ec);
    fs::create_directory(staging, ec);
    if (ec)
        return Error::at(p.runFolder.string(), "cannot create the fork's folder: " + ec.message());
    const auto aside = [&](const fs::path& x) {
        return staging / x.lexically_relative(p.runFolder);
    };
    auto made = [&]() -> Status {
        if (Status st = linkTree(p.parentRoot / p.epochDir, aside(p.forkEpochDir)); !st)
            return st;
        const Layout* layout = layoutAt(p.parentRoot);
        const Resume* resume = layout ? layout->resume() : nullptr;
        if (!resume)
            return Error::at(p.parentRoot.string(), "no run that can be resumed here any more");
        for (const std::string& link : resume->forkLinks())
            if (Status st = placeSymlink(aside(fs::path(p.plan.runRoot) / link), p.epochDir); !st)
                return st;
        // The parent's logs below its run folder, cut at the fork epoch, where
        // the fork's trainer keeps them (those the format continues).
        const Run parent = layout->loadRun(p.parentRoot);
        const Epoch* epoch = parent.findEpoch(from);
        const fs::path parentFolder = resume->runFolder(p.parentRoot);
        for (const RunSource& source : epoch ? parent.sources : std::vector<RunSource>{}) {
            if (source.path.empty())
                continue;
            const fs::path rel = fs::path(source.path).lexically_relative(parentFolder);
            struct stat sourceStat
            {};
            if (rel.empty() || *rel.begin() == ".." ||
                ::stat(source.path.c_str(), &sourceStat) != 0 || !S_ISREG(sourceStat.st_mode))
                continue; // outside the run folder, or no log (Lightning's checkpoints/)
            auto text = RegularFile::read(source.path, RegularFile::kLogLimit);
            if (!text)
                return text.error();
            const auto cut = resume->cutSource(source, *text, *epoch);
            if (!cut)
                continue;
            if (Status st = writeFileAtomically(staging / rel, *cut); !st)
                return st;
        }
        if (Status st = writeConfig(p, fs::path(p.plan.runRoot), staging); !st)
            return st;
        // Into place, whole (over the empty folder prepare() allowed, if any).
        if (::rename(staging.c_str(), p.runFolder.c_str()) != 0)
            return Error{"cannot create the fork's folder " + osError(p.runFolder, errno),
                         p.runFolder.string()};
        return {};
    }();
    if (!made) {
        fs::remove_all(staging, ec);
        return Error{made.error().message + " (the fork was not made)", made.error().path};
    }
    return {};
}

// Puts back what a restart's apply did (all of it or, after a failure, the
// part in p.applied), newest first. Messages of what could not be put back.
std::string putRestartBack(const PreparedLaunch& p)
{
    std::string problems;
    auto note = [&problems](const std::string& m) {
        problems += (problems.empty() ? "" : "; ") + m;
    };
    std::error_code ec;
    if (!p.applied.moved.empty()) {
        auto lock = RunLock::acquire(p.parentRoot);
        if (!lock)
            return lock.error().message;
        for (auto it = p.applied.moved.rbegin(); it != p.applied.moved.rend(); ++it)
            if (::rename(it->second.c_str(), it->first.c_str()) != 0)
                note("could not move " + it->second + " back to " + it->first + ": " +
                     std::strerror(errno));
    }
    // The epochs are back: the links' previous targets exist again.
    for (auto it = p.applied.journalIds.rbegin(); it != p.applied.journalIds.rend(); ++it) {
        auto next = Relinker::nextUndo(p.parentRoot);
        if (!next || !*next || (*next)->id != *it) {
            note("a link was changed after the restart was prepared: not put back (ckpt "
                 "relink --undo)");
            break;
        }
        RelinkOptions options;
        options.force = true; // ours, checked above: the journal's newest entry
        if (auto undone = Relinker::undo(p.parentRoot, options); !undone)
            note("could not put " + (*next)->link + " back: " + undone.error().message);
    }
    // Folders this apply made, and the config it wrote (ours: fs::remove takes
    // only empty folders). An epoch that could not be moved back stays aside.
    if (p.applied.supersededMade && problems.empty()) {
        fs::remove_all(p.supersededDir, ec);
        fs::remove(p.supersededDir.parent_path(), ec);
    }
    if (!p.applied.config.empty()) {
        fs::remove(p.applied.config, ec);
        if (p.applied.configsDirMade)
            fs::remove(fs::path(p.applied.config).parent_path(), ec);
    }
    return problems;
}

// A restart writes its configuration first (a new file, nothing else touched
// if that fails), then relinks and moves the later epochs aside. Any failure
// on the way puts back what was done, so the run is as it was.
//
// The order makes a kill -9 at any point leave a run that reads well: plain
// links (CANDLE's `last`) are relinked first (to an epoch that stays), epochs
// go aside newest first (like a prune), and a stepwise link (`best`), when it
// lies past `from`, is re-pointed before its epoch goes at its target among
// those that stay then (so it always names the best epoch present). In between, a scan sees either
// state or, epoch by epoch, a run cut short with healthy links; running the same restart again
// finishes it.
Status applyRestart(PreparedLaunch& p, int from)
{
    const Layout* layout = layoutAt(p.parentRoot);
    if (!layout)
        return Error::at(p.parentRoot.string(), "no checkpoint run here any more");
    if (Status st = writeConfig(p, p.parentRoot); !st)
        return st;
    std::error_code ec;
    auto rollBack = [&](const Error& error) -> Status {
        std::string message = error.message;
        if (const std::string problems = putRestartBack(p); !problems.empty())
            message += "; " + problems;
        return Error{message + " (the restart was not prepared)", error.path};
    };
    std::vector<std::pair<int, fs::path>> later; // epoch, directory; newest first
    std::map<std::string, std::optional<int>> linkNow;
    Run before;
    {
        auto lock = RunLock::acquire(p.parentRoot);
        if (!lock)
            return rollBack(lock.error());
        const Run run = layout->loadRun(p.parentRoot);
        // What is there now, not what was planned: an epoch saved since moves aside too.
        p.superseded.clear();
        for (const Epoch& e : run.epochs)
            if (e.number > from) {
                p.superseded.push_back(e.number);
                later.emplace_back(e.number, fs::path(run.pathOf(e)));
            }
        std::sort(later.begin(), later.end(),
                  [](const auto& a, const auto& b) { return a.first > b.first; });
        for (const PreparedLaunch::LinkMove& l : p.links)
            linkNow[l.name] = run.linkedEpoch(l.name);
        before = run;
        p.applied.supersededMade = !fs::exists(p.supersededDir, ec);
        fs::create_directories(p.supersededDir, ec);
        if (ec)
            return rollBack(
                Error::at(p.supersededDir.string(), "cannot create the folder: " + ec.message()));
        for (const RunSource& source : run.sources)
            if (Status st = copyIfPresent(source.path, p.supersededDir); !st)
                return rollBack(st.error());
    }
    RelinkOptions options;
    options.force = true; // checked in prepare(), refusals shown and forced there
    auto relinkTo = [&](const std::string& name, int epoch) -> Status {
        auto relink = Relinker::relink(p.parentRoot, name, epoch, options);
        if (!relink)
            return relink.error();
        if (relink->changed)
            p.applied.journalIds.push_back(relink->journalId);
        linkNow[name] = epoch;
        return {};
    };
    auto moveAside = [&](const fs::path& dir) -> Status {
        auto lock = RunLock::acquire(p.parentRoot);
        if (!lock)
            return lock.error();
        const fs::path aside = p.supersededDir / dir.lexically_relative(p.parentRoot);
        if (fs::exists(aside, ec))
            return {};
        fs::create_directories(aside.parent_path(), ec);
        if (::rename(dir.c_str(), aside.c_str()) != 0)
            return Error{"cannot move " + dir.string() + " aside: " + osError(aside, errno),
                         dir.string()};
        p.applied.moved.emplace_back(dir.string(), aside.string());
        return {};
    };
    // Plain links first (`last`), at epochs that stay.
    for (const PreparedLaunch::LinkMove& l : p.links)
        if (!l.stepwise)
            if (Status st = relinkTo(l.name, l.to); !st)
                return rollBack(st.error());
    // Then the epochs aside, newest first; a stepwise link (`best`) that names
    // one is re-pointed before it goes, at its target among those that stay.
    const Resume* resume = layout->resume();
    for (const auto& [number, dir] : later) {
        for (const PreparedLaunch::LinkMove& l : p.links) {
            if (!l.stepwise || linkNow[l.name] != number)
                continue;
            const int to =
                (resume ? resume->linkTargetUpTo(before, l.name, number - 1) : std::nullopt)
                    .value_or(l.to);
            if (Status st = relinkTo(l.name, to); !st)
                return rollBack(st.error());
        }
        if (Status st = moveAside(dir); !st)
            return rollBack(st.error());
    }
    for (const PreparedLaunch::LinkMove& l : p.links)
        if (l.stepwise && linkNow[l.name] != l.to)
            if (Status st = relinkTo(l.name, l.to); !st)
                return rollBack(st.error());
    return {};
}

// A restart into a new segment: its root (made when missing) and the edited
// config in it; the parent is not touched.
Status applySegment(PreparedLaunch& p)
{
    std::error_code ec;
    const fs::path root(p.plan.runRoot);
    p.applied.segmentMade = !fs::exists(root, ec);
    fs::create_directories(root, ec);
    if (ec)
        return Error::at(root.string(), "cannot create the folder: " + ec.message());
    if (Status st = writeConfig(p, root); !st) {
        if (p.applied.segmentMade)
            fs::remove_all(root, ec);
        return st;
    }
    return {};
}

// Puts a segment's apply back: the config written and the folders made, when
// nothing else was written there since (the trainer ran: not undone).
Status removeSegment(const PreparedLaunch& p)
{
    std::error_code ec;
    const fs::path root(p.plan.runRoot);
    for (const auto& entry : fs::directory_iterator(root, ec))
        if (entry.path().filename() != ".ckpt-studio")
            return Error::at(entry.path().string(),
                             "was written since the restart was prepared: not undone");
    if (!p.applied.config.empty())
        fs::remove(p.applied.config, ec);
    if (p.applied.configsDirMade)
        fs::remove(fs::path(p.applied.config).parent_path(), ec);
    if (p.applied.segmentMade) {
        fs::remove(root / ".ckpt-studio", ec); // only when empty
        fs::remove(root, ec);
    }
    return {};
}

// Was the run launched since `p` was applied? (Its record has an attempt since.)
std::optional<std::string> launchedSince(const PreparedLaunch& p)
{
    auto record = LaunchRecord::load(LaunchRecord::pathFor(p.plan.runRoot));
    if (!record)
        return std::nullopt;
    for (const LaunchAttempt& a : record->attempts)
        if (p.plan.mode == LaunchPlan::Mode::Fork || a.submitted >= p.applied.time)
            return a.submitted;
    return std::nullopt;
}

} // namespace

Status LaunchPrep::apply(PreparedLaunch& p)
{
    const int from = p.plan.parent ? p.plan.parent->epoch : 0;
    p.applied = {};
    p.applied.time = isoNow();
    Status st = p.plan.mode == LaunchPlan::Mode::Fork ? applyFork(p, from)
                : p.segment                           ? applySegment(p)
                                                      : applyRestart(p, from);
    p.applied.done = static_cast<bool>(st);
    if (!st)
        p.applied = {};
    return st;
}

Status LaunchPrep::undo(const PreparedLaunch& p)
{
    const bool fork = p.plan.mode == LaunchPlan::Mode::Fork;
    if (!p.applied.done)
        return Error::at(p.plan.runRoot, "nothing to undo: the launch was not prepared");
    if (auto when = launchedSince(p))
        return Error::at(p.plan.runRoot,
                         "launched at " + *when +
                             ": a launched run is recorded, not undone (stop it, then restart "
                             "or fork from the epoch you want)");
    if (fork)
        return removeFork(p);
    if (p.segment)
        return removeSegment(p);
    // An epoch folder back in place means the trainer ran: nothing is moved over it.
    std::error_code ec;
    for (const auto& [dir, aside] : p.applied.moved)
        if (fs::exists(dir, ec))
            return Error::at(dir, "exists again (written since the restart was prepared): "
                                  "not undone");
    if (const std::string problems = putRestartBack(p); !problems.empty())
        return Error::at(p.parentRoot.string(), problems);
    return {};
}

} // namespace ckpt
