#include "ops/Relinker.h"

#include "io/AtomicFile.h"
#include "layout/Layout.h"
#include "layout/Resume.h"
#include "ops/AuditLog.h"
#include "ops/EpochDirs.h"
#include "ops/LinkState.h"
#include "ops/RunLock.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <set>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

std::string shown(const std::optional<std::string>& text)
{
    return text ? *text : std::string("<no link>");
}

std::string joined(const std::vector<std::string>& items)
{
    std::string out;
    for (const auto& s : items)
        out += (out.empty() ? "" : "; ") + s;
    return out;
}

Result<fs::path> runDirectory(const fs::path& runRoot)
{
    std::error_code ec;
    fs::path root = fs::absolute(runRoot, ec).lexically_normal();
    if (ec)
        return Error::at(runRoot.string(), "cannot make the path absolute: " + ec.message());
    if (!root.has_filename() && root.has_parent_path())
        root = root.parent_path();
    if (!fs::is_directory(root, ec))
        return Error::at(root.string(), "not a directory: no run here");
    return root;
}

// A run directory and its layout.
struct RunAt
{
    fs::path root;
    const Layout* layout = nullptr;
};

Result<RunAt> runAt(const fs::path& runRoot)
{
    auto root = runDirectory(runRoot);
    if (!root)
        return root.error();
    const Layout* layout = layoutAt(*root);
    if (!layout)
        return Error::at(root->string(), "no checkpoint run here");
    return RunAt{*root, layout};
}

// The run of a link operation on `linkName`: one of the layout's movable links.
Result<RunAt> linkRun(const fs::path& runRoot, std::string_view linkName)
{
    auto run = runAt(runRoot);
    if (!run)
        return run.error();
    if (Status st = LinkState::checkName(*run->layout, linkName); !st)
        return Error::at(run->root.string(), st.error().message);
    return run;
}

// The link as it is now, under the run lock: a symlink or nothing. A real file
// or directory in its place is refused.
Result<LinkState> readReplaceableLink(const fs::path& root, const Layout& layout,
                                      std::string_view linkName)
{
    auto current = LinkState::read(root, layout, linkName);
    if (current && current->kind == LinkState::Kind::Other)
        return Error::at(current->path.string(),
                         "is a real file or directory, not a symlink: refusing to replace it, it "
                         "may hold data (move it away first if it is not needed)");
    return current;
}

// What one link change records and does.
struct Change
{
    std::string action; // "relink", "repair", "undo"
    std::optional<std::string> to;
    std::optional<int> epoch;
    std::string ref;           // undo: the id undone
    std::string undoneSummary; // undo: "the change made <time> by <actor>"
    std::vector<std::string> forced;
};

std::string auditMessage(const LinkState& current, const Change& change, const std::string& actor)
{
    std::string why;
    if (change.action == "repair")
        why = "repair of a link moved or copied with its run; ";
    else if (change.action == "undo")
        why = "undo of " + change.undoneSummary + "; ";
    std::string msg =
        change.to ? "linking: " + current.name + " -> " + *change.to : "unlinking: " + current.name;
    msg += " (" + why + "was " + shown(current.textOrAbsent()) + ") by " + actor;
    if (!change.forced.empty())
        msg += "; forced past: " + joined(change.forced);
    return msg;
}

// Journals, changes and audits one link; the caller holds the run lock and has
// just read `current` with readReplaceableLink.
Result<RelinkOutcome> applyChange(const fs::path& root, const Layout& layout,
                                  const LinkState& current, const Change& change,
                                  const RelinkOptions& options)
{
    const std::string actor = options.actor.empty() ? AuditLog::defaultActor() : options.actor;
    const AuditLog audit(layout, root);
    const ActionJournal journal(root);
    if (Status st = audit.checkWritable(); !st)
        return Error{st.error().message + " (nothing was changed)", st.error().path};

    JournalEntry entry;
    entry.id = ActionJournal::newId();
    entry.time = ActionJournal::utcNow();
    entry.actor = actor;
    entry.action = change.action;
    entry.link = current.name;
    entry.from = current.textOrAbsent();
    entry.to = change.to;
    entry.epoch = change.epoch;
    entry.ref = change.ref;
    entry.forced = change.forced;
    if (Status st = journal.append(entry); !st)
        return Error{st.error().message + " (nothing was changed)", st.error().path};

    Status changed;
    if (change.to)
        changed = replaceSymlink(current.path, *change.to);
    else if (::unlink(current.path.c_str()) != 0 && errno != ENOENT)
        changed =
            Error{"cannot remove link " + osError(current.path, errno), current.path.string()};
    if (!changed) {
        JournalEntry abort = entry;
        abort.id = ActionJournal::newId();
        abort.time = ActionJournal::utcNow();
        abort.action = "abort";
        abort.ref = entry.id;
        abort.forced.clear();
        Status noted = journal.append(abort);
        std::string msg = changed.error().message + " (the link was not changed)";
        if (!noted)
            msg += "; also could not mark the journal entry as not done: " + noted.error().message;
        return Error{msg, changed.error().path};
    }

    RelinkOutcome out;
    out.link = current.name;
    out.linkPath = current.path.string();
    out.previousTarget = current.textOrAbsent();
    out.newTarget = change.to;
    out.epoch = change.epoch;
    out.overridden = change.forced;
    out.journalId = entry.id;
    out.auditLog = audit.path().string();
    if (Status st = audit.write(auditMessage(current, change, actor)); !st)
        out.warnings.push_back("the link was changed but the audit line could not be written: " +
                               st.error().message);
    return out;
}

// Every change is journalled before its link is replaced, so a process killed
// in between leaves an entry for a change that never happened. Only the newest
// entry can be in that state (changes hold the run lock). When its link still
// reads as the entry's `from`, not its `to`, the change did not happen: it is
// taken as aborted, and with `journal` (under the run lock) that is recorded.
std::vector<JournalEntry> settleInterrupted(const fs::path& root, std::vector<JournalEntry> entries,
                                            const ActionJournal* journal)
{
    std::set<std::string> aborted;
    for (const JournalEntry& e : entries)
        if (e.action == "abort")
            aborted.insert(e.ref);
    auto last = std::find_if(entries.rbegin(), entries.rend(),
                             [](const JournalEntry& e) { return e.action != "abort"; });
    if (last == entries.rend() || aborted.count(last->id) || last->from == last->to)
        return entries;
    std::error_code ec;
    const fs::path text = fs::read_symlink(root / last->link, ec);
    std::optional<std::string> now;
    if (!ec)
        now = text.string();
    else if (ec != std::errc::no_such_file_or_directory)
        return entries; // not a link we can read: leave the history as it is
    if (now != last->from)
        return entries;
    JournalEntry abort = *last;
    abort.id = ActionJournal::newId();
    abort.time = ActionJournal::utcNow();
    abort.actor = AuditLog::defaultActor();
    abort.action = "abort";
    abort.ref = last->id;
    abort.forced = {"interrupted: the process was stopped before the link was replaced"};
    if (journal)
        (void)journal->append(abort); // best effort: the next reader settles it again
    entries.push_back(std::move(abort));
    return entries;
}

// The link's target, read from `root`, lies outside the run (a copy's
// absolute links into the original).
bool pointsOutside(const fs::path& root, const std::string& text)
{
    const fs::path target(text);
    const fs::path resolved = (target.is_absolute() ? target : root / target).lexically_normal();
    const fs::path rel = resolved.lexically_relative(root.lexically_normal());
    return rel.empty() || *rel.begin() == "..";
}

} // namespace

Result<std::vector<std::string>> Relinker::checkEpoch(const fs::path& runRoot, int epoch,
                                                      const Progress& progress)
{
    auto run = runAt(runRoot);
    if (!run)
        return run.error();
    const Resume* resume = run->layout->resume();
    if (!resume)
        return std::vector<std::string>{};
    if (run->layout->watchHints().epochFiles) { // epochs are files: the run says which
        const Run loaded = run->layout->loadRun(run->root);
        const Epoch* found = loaded.findEpoch(epoch);
        if (!found)
            return Error::at(run->root.string(),
                             "no epoch " + std::to_string(epoch) + " in this run (it has " +
                                 std::to_string(loaded.epochs.size()) + " epochs)");
        return resume->check(loaded.pathOf(*found), epoch, progress);
    }
    auto rel = EpochDirs::find(run->root, *run->layout, epoch);
    if (!rel)
        return rel.error();
    return resume->check(run->root / *rel, epoch, progress);
}

Result<RelinkOutcome> Relinker::relink(const fs::path& runRoot, std::string_view linkName,
                                       int epoch, const RelinkOptions& options,
                                       const Progress& progress)
{
    auto run = linkRun(runRoot, linkName);
    if (!run)
        return run.error();
    const fs::path* root = &run->root;
    const Layout& layout = *run->layout;
    const fs::path linkPath = *root / std::string(linkName);
    auto target = EpochDirs::find(*root, layout, epoch);
    if (!target)
        return Error{"cannot point " + std::string(linkName) + " at epoch " +
                         std::to_string(epoch) + ": " + target.error().message,
                     target.error().path};
    auto failures = checkEpoch(*root, epoch, progress);
    if (!failures)
        return failures.error();
    if (!failures->empty() && !options.force)
        return Error::at(linkPath.string(), "refusing to point " + std::string(linkName) + " at " +
                                                *target + ": " + joined(*failures) +
                                                " (force overrides)");

    auto lock = RunLock::acquire(*root);
    if (!lock)
        return lock.error();
    auto current = readReplaceableLink(*root, layout, linkName);
    if (!current)
        return current.error();
    // The epoch may have gone while the checksum was computed.
    auto again = EpochDirs::find(*root, layout, epoch);
    if (!again || *again != *target)
        return Error::at(linkPath.string(), "epoch " + std::to_string(epoch) +
                                                " changed on disk during the checks; try again");
    if (current->kind == LinkState::Kind::Symlink && current->text == *target) {
        RelinkOutcome same;
        same.link = current->name;
        same.linkPath = current->path.string();
        same.previousTarget = current->text;
        same.newTarget = current->text;
        same.epoch = epoch;
        same.changed = false;
        return same;
    }
    Change change;
    change.action = "relink";
    change.to = *target;
    change.epoch = epoch;
    change.forced = *failures;
    return applyChange(*root, layout, *current, change, options);
}

Result<RelinkOutcome> Relinker::undo(const fs::path& runRoot, const RelinkOptions& options)
{
    auto run = runAt(runRoot);
    if (!run)
        return run.error();
    const fs::path* root = &run->root;
    const Layout& layout = *run->layout;
    auto lock = RunLock::acquire(*root);
    if (!lock)
        return lock.error();
    const ActionJournal journal(*root);
    auto contents = journal.read();
    if (!contents)
        return contents.error();
    contents->entries = settleInterrupted(*root, std::move(contents->entries), &journal);
    const auto action = ActionJournal::lastUndoable(contents->entries);
    if (!action)
        return Error::at(journal.path().string(),
                         "nothing to undo: every link change recorded here is already undone");
    // The journal is a file anyone can edit: never follow it outside last/best.
    if (Status st = LinkState::checkName(layout, action->link); !st)
        return Error::at(journal.path().string(),
                         "entry " + action->id + ": " + st.error().message);
    auto current = readReplaceableLink(*root, layout, action->link);
    if (!current)
        return current.error();

    const std::string made = "the change made " + action->time + " by " + action->actor;
    std::vector<std::string> forced;
    if (current->textOrAbsent() != action->to) {
        const std::string why = action->link + " is now " + shown(current->textOrAbsent()) +
                                ", not " + shown(action->to) + " as set by " + made +
                                ": it was changed since";
        if (!options.force)
            return Error::at(current->path.string(), "refusing to undo: " + why +
                                                         " (force restores " + shown(action->from) +
                                                         " anyway)");
        forced.push_back(why);
    }
    std::optional<int> epoch;
    if (action->from) {
        const fs::path p(*action->from);
        std::error_code ec;
        const bool exists = fs::exists(p.is_absolute() ? p : *root / p, ec);
        const auto named = LinkState::trailingEpoch(layout, *action->from);
        epoch = named;
        bool local = false;
        if (!exists && named) {
            auto dirs = EpochDirs::list(*root, layout);
            local = dirs && dirs->count(*named);
        }
        if (!exists && !local) {
            const std::string why = "the previous target " + *action->from +
                                    " no longer exists (its epoch was deleted since?)";
            if (!options.force)
                return Error::at(current->path.string(),
                                 "refusing to undo: " + why + " (force restores it anyway)");
            forced.push_back(why);
        }
    }
    Change change;
    change.action = "undo";
    change.to = action->from;
    change.epoch = epoch;
    change.ref = action->id;
    change.undoneSummary = made;
    change.forced = forced;
    auto out = applyChange(*root, layout, *current, change, options);
    if (out)
        for (const auto& skipped : contents->skipped)
            out->warnings.push_back("unreadable journal line skipped: " + skipped);
    return out;
}

Result<RelinkOutcome> Relinker::repair(const fs::path& runRoot, std::string_view linkName,
                                       const RelinkOptions& options)
{
    auto run = linkRun(runRoot, linkName);
    if (!run)
        return run.error();
    const fs::path* root = &run->root;
    const Layout& layout = *run->layout;
    auto lock = RunLock::acquire(*root);
    if (!lock)
        return lock.error();
    auto current = readReplaceableLink(*root, layout, linkName);
    if (!current)
        return current.error();
    if (current->kind == LinkState::Kind::Absent)
        return Error::at(current->path.string(), "no link to repair");
    if (current->resolves && (current->resolvedEpoch || !pointsOutside(*root, current->text)))
        return Error::at(current->path.string(),
                         "-> " + current->text +
                             " resolves inside this run: nothing to repair (relink it to "
                             "choose another epoch)");
    if (!current->namedEpoch)
        return Error::at(current->path.string(),
                         "-> " + current->text +
                             " does not end in epochs/<number>: cannot tell which "
                             "epoch it meant; relink it to an epoch instead");
    auto target = EpochDirs::find(*root, layout, *current->namedEpoch);
    if (!target)
        return Error{"cannot repair " + current->path.string() + " -> " + current->text + ": " +
                         target.error().message,
                     target.error().path};
    Change change;
    change.action = "repair";
    change.to = *target;
    change.epoch = current->namedEpoch;
    return applyChange(*root, layout, *current, change, options);
}

bool Relinker::isRepairable(const fs::path& runRoot, std::string_view linkName)
{
    auto run = linkRun(runRoot, linkName);
    if (!run)
        return false;
    auto current = LinkState::read(run->root, *run->layout, linkName);
    if (!current || current->kind != LinkState::Kind::Symlink || !current->namedEpoch)
        return false;
    if (current->resolves && (current->resolvedEpoch || !pointsOutside(run->root, current->text)))
        return false;
    auto dirs = EpochDirs::list(run->root, *run->layout);
    return dirs && dirs->count(*current->namedEpoch);
}

Result<std::vector<RelinkOutcome>> Relinker::repairAll(const fs::path& runRoot,
                                                       const RelinkOptions& options)
{
    auto run = runAt(runRoot);
    if (!run)
        return run.error();
    const fs::path* root = &run->root;
    std::vector<RelinkOutcome> done;
    for (std::string_view name : run->layout->linkNames()) {
        if (!isRepairable(*root, name))
            continue;
        auto out = repair(*root, name, options);
        if (!out) {
            std::string msg = out.error().message;
            if (!done.empty())
                msg += " (" + done.front().link + " was repaired; undo reverts it)";
            return Error{msg, out.error().path};
        }
        done.push_back(std::move(*out));
    }
    if (done.empty())
        return Error::at(root->string(), "no link to repair: the run's links resolve inside it "
                                         "or name no local epoch");
    return done;
}

std::vector<int> Relinker::restartOverwrites(const Run& run, int epoch)
{
    std::vector<int> out;
    for (const auto& e : run.epochs)
        if (e.number > epoch)
            out.push_back(e.number);
    return out;
}

Result<std::optional<JournalEntry>> Relinker::nextUndo(const fs::path& runRoot)
{
    auto root = runDirectory(runRoot);
    if (!root)
        return root.error();
    auto contents = ActionJournal(*root).read();
    if (!contents)
        return contents.error();
    return ActionJournal::lastUndoable(
        settleInterrupted(*root, std::move(contents->entries), nullptr));
}

} // namespace ckpt
