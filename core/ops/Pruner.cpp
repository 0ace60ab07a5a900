#include "ops/Pruner.h"

#include "io/AtomicFile.h"
#include "layout/Layout.h"
#include "ops/AuditLog.h"
#include "ops/EpochDirs.h"
#include "ops/LinkState.h"
#include "ops/RunLock.h"

#include <cerrno>
#include <cstdio>
#include <fcntl.h>
#include <map>
#include <random>
#include <set>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kAsideMark = ".deleting-";

std::uint64_t treeBytes(const fs::path& dir)
{
    std::uint64_t total = 0;
    std::error_code ec;
    for (fs::recursive_directory_iterator
             it(dir, fs::directory_options::skip_permission_denied, ec),
         end;
         !ec && it != end; it.increment(ec)) {
        std::error_code sizeEc;
        if (it->is_regular_file(sizeEc) && !it->is_symlink(sizeEc)) {
            const auto size = it->file_size(sizeEc);
            if (!sizeEc)
                total += size;
        }
    }
    return total;
}

// "epochs/.012.deleting-xxxx" -> 12: a directory an interrupted prune left.
std::optional<int> asideEpoch(const Layout& layout, const std::string& name)
{
    if (name.size() < 2 || name[0] != '.')
        return std::nullopt;
    const auto mark = name.find(kAsideMark);
    if (mark == std::string::npos)
        return std::nullopt;
    return layout.epochNumberOf(std::string_view(name).substr(1, mark - 1));
}

std::string asideName(const std::string& dirName)
{
    static thread_local std::mt19937_64 rng{std::random_device{}()};
    static constexpr char kHex[] = "0123456789abcdef";
    std::string s(1, '.'); // appended: GCC 12 -O3 warns falsely on "." + std::string&&
    s += dirName;
    s += kAsideMark;
    auto bits = rng();
    for (int i = 0; i < 12; ++i, bits >>= 4)
        s += kHex[bits & 0xf];
    return s;
}

// rename() that never replaces an existing entry, where the filesystem allows.
int renameNoReplace(const fs::path& from, const fs::path& to)
{
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
    struct stat st
    {};
    if (::lstat(to.c_str(), &st) == 0) {
        errno = EEXIST;
        return -1;
    }
    return ::rename(from.c_str(), to.c_str());
}

struct Protection
{
    std::map<int, std::vector<std::string>> epochs;
    std::vector<std::string> notes;
    bool unreadable = false; // a link could not be read: nothing is safe to delete
};

// Epochs that must survive, from the disk as it is now.
Protection protectionOnDisk(const fs::path& root, const Layout& layout)
{
    Protection p;
    for (std::string_view name : layout.linkNames()) {
        const std::string reason(name);
        auto state = LinkState::read(root, layout, name);
        if (!state) {
            p.unreadable = true;
            p.notes.push_back(state.error().message);
            continue;
        }
        if (state->kind != LinkState::Kind::Symlink)
            continue;
        const auto designated = state->designatedEpochs();
        if (designated.empty())
            p.notes.push_back(state->path.string() + " -> " + state->text +
                              " designates no epoch of this run: it protects nothing");
        for (int e : designated)
            p.epochs[e].push_back(reason);
    }
    auto dirs = EpochDirs::list(root, layout);
    if (!dirs) {
        p.unreadable = true;
        p.notes.push_back(dirs.error().message);
    } else if (!dirs->empty()) {
        p.epochs[dirs->rbegin()->first].push_back(std::string(kKeepNewest));
    }
    return p;
}

std::string reasonsText(const std::vector<std::string>& reasons)
{
    std::string out;
    for (const auto& r : reasons) {
        const std::string s = r == kKeepNewest ? "the newest epoch" : "the target of " + r;
        out += (out.empty() ? "" : " and ") + s;
    }
    return out;
}

void addReason(std::vector<std::string>& reasons, const std::string& r)
{
    for (auto have : reasons)
        if (have == r)
            return;
    reasons.push_back(r);
}

// Fills plan.kept (with why) and returns the epochs the policy deletes, ascending.
std::vector<int> keptAndDoomed(const Run& run, const KeepPolicy& policy,
                               const std::map<int, std::vector<std::string>>& reasons,
                               const std::vector<std::string_view>& linkNames,
                               const std::map<int, std::vector<std::string>>& pinned,
                               PrunePlan& plan)
{
    std::vector<int> numbers;
    for (const auto& e : run.epochs)
        numbers.push_back(e.number);
    std::set<int> protectedEpochs;
    for (const auto& [e, rs] : reasons)
        protectedEpochs.insert(e);
    const auto doomed = policy.toDelete(numbers, protectedEpochs);
    const auto unpicked = policy.toDelete(numbers, {});
    const std::set<int> doomedSet(doomed.begin(), doomed.end());
    const std::set<int> unpickedSet(unpicked.begin(), unpicked.end());
    std::vector<int> out;
    for (const auto& e : run.epochs) {
        if (doomedSet.count(e.number)) {
            out.push_back(e.number);
            continue;
        }
        KeptEpoch kept{e.number, {}};
        std::vector<std::string> order{std::string(kKeepNewest)};
        order.insert(order.end(), linkNames.begin(), linkNames.end());
        if (auto pin = pinned.find(e.number); pin != pinned.end())
            order.insert(order.end(), pin->second.begin(), pin->second.end());
        for (const auto& r : order)
            if (auto it = reasons.find(e.number); it != reasons.end())
                for (const auto& have : it->second)
                    if (have == r)
                        kept.reasons.push_back(r);
        if (!unpickedSet.count(e.number))
            kept.reasons.push_back(std::string(kKeepPolicy));
        plan.kept.push_back(std::move(kept));
    }
    return out;
}

// Why the run as held keeps epochs: its newest, the targets of its links.
std::map<int, std::vector<std::string>> heldReasons(const Run& run,
                                                    const std::vector<std::string_view>& linkNames)
{
    std::map<int, std::vector<std::string>> reasons;
    if (!run.epochs.empty())
        addReason(reasons[run.epochs.back().number], std::string(kKeepNewest));
    for (std::string_view name : linkNames)
        if (const auto e = run.linkedEpoch(name))
            addReason(reasons[*e], std::string(name));
    return reasons;
}

} // namespace

PrunePlan Pruner::plan(const Run& run, const KeepPolicy& policy,
                       const std::map<int, std::vector<std::string>>& pinned)
{
    PrunePlan plan;
    plan.root = run.root;
    plan.policy = policy;
    const fs::path root(run.root);
    const Layout* layout = layoutOf(run);
    if (!layout || !layout->canDeleteEpochs()) {
        plan.notes.push_back(run.layout + " runs cannot be pruned by Ckpt Studio: nothing planned");
        return plan;
    }
    const auto linkNames = layout->linkNames();
    auto reasons = heldReasons(run, linkNames);
    // The Run may be older than the disk: what the links say now counts too.
    Protection now = protectionOnDisk(root, *layout);
    for (const auto& [e, rs] : now.epochs)
        for (const auto& r : rs)
            if (r != kKeepNewest)
                addReason(reasons[e], r);
    plan.notes = now.notes;
    if (now.unreadable) {
        plan.notes.push_back("cannot tell which epochs the links protect: nothing planned");
        return plan;
    }

    for (const auto& [e, rs] : pinned)
        for (const auto& r : rs)
            addReason(reasons[e], r);

    for (const int number : keptAndDoomed(run, policy, reasons, linkNames, pinned, plan)) {
        const Epoch& e = *run.findEpoch(number);
        const std::string dir = run.pathOf(e);
        struct stat st
        {};
        if (::lstat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
            // Never delete through a symlinked epoch: the data is elsewhere.
            plan.notes.push_back(dir + ": not a real directory (gone, or a symlink); not planned");
            continue;
        }
        PruneCandidate c;
        c.epoch = e.number;
        c.dir = dir;
        c.bytes = treeBytes(dir);
        c.device = static_cast<std::uint64_t>(st.st_dev);
        c.inode = static_cast<std::uint64_t>(st.st_ino);
        plan.bytesFreed += c.bytes;
        plan.toDelete.push_back(std::move(c));
    }

    std::error_code ec;
    for (fs::directory_iterator it(EpochDirs::folder(root, *layout), ec), end; !ec && it != end;
         it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code typeEc;
        if (asideEpoch(*layout, name) && it->is_directory(typeEc) && !it->is_symlink(typeEc)) {
            plan.leftovers.push_back(it->path().string());
            plan.leftoverBytes += treeBytes(it->path());
        }
    }
    plan.bytesFreed += plan.leftoverBytes;
    return plan;
}

PrunePlan Pruner::planHeld(const Run& run, const KeepPolicy& policy)
{
    PrunePlan plan;
    plan.root = run.root;
    plan.policy = policy;
    const Layout* layout = layoutOf(run);
    if (!layout || !layout->canDeleteEpochs()) {
        plan.notes.push_back(run.layout + " runs cannot be pruned by Ckpt Studio: nothing planned");
        return plan;
    }
    const auto linkNames = layout->linkNames();
    for (const int number :
         keptAndDoomed(run, policy, heldReasons(run, linkNames), linkNames, {}, plan)) {
        const Epoch& e = *run.findEpoch(number);
        PruneCandidate c;
        c.epoch = number;
        c.dir = run.pathOf(e);
        for (const EpochFile& f : e.files)
            c.bytes += f.bytes;
        plan.bytesFreed += c.bytes;
        plan.toDelete.push_back(std::move(c));
    }
    return plan;
}

Result<PruneOutcome> Pruner::execute(const Run& run, const PrunePlan& plan,
                                     const Progress& progress, const std::string& actorIn)
{
    if (plan.root != run.root)
        return Error::at(run.root, "the prune plan is for another run (" + plan.root + ")");
    const fs::path root(plan.root);
    PruneOutcome out;
    if (plan.toDelete.empty() && plan.leftovers.empty())
        return out; // nothing to do: not even the lock or the log is created
    const Layout* layout = layoutOf(run);
    if (!layout || !layout->canDeleteEpochs())
        return Error::at(run.root, run.layout + " runs cannot be pruned by Ckpt Studio");
    const fs::path epochsDir = EpochDirs::folder(root, *layout);
    auto lock = RunLock::acquire(root);
    if (!lock)
        return lock.error();
    // Epochs go by renaming them in their folder: a folder the user may not
    // write is said once, before anything is logged or deleted.
    if (::faccessat(AT_FDCWD, epochsDir.c_str(), W_OK | X_OK, AT_EACCESS) != 0) {
        const int err = errno;
        // Appended piece by piece: GCC 12 at -O3 warns falsely on "literal" + temporary.
        std::string message = "cannot delete epochs in ";
        message += osError(epochsDir, err);
        message += " (nothing was deleted)";
        return Error{message, epochsDir.string()};
    }
    if (plan.toTrash) {
        // Said once, before anything moves: never a silent fall-back to deleting.
        if (auto trash = Trash::locationFor(epochsDir.string()); !trash)
            return Error{trash.error().message + " (nothing was moved or deleted; delete "
                                                 "permanently instead, or make the trash)",
                         epochsDir.string()};
    }
    const AuditLog audit(*layout, root);
    if (Status st = audit.checkWritable(); !st)
        return Error{st.error().message + " (nothing was deleted)", st.error().path};
    const std::string actor = actorIn.empty() ? AuditLog::defaultActor() : actorIn;

    out.auditLog = audit.path().string();
    auto note = [&](const std::string& message) {
        if (Status st = audit.write(message); !st)
            out.warnings.push_back("could not write the audit line \"" + message +
                                   "\": " + st.error().message);
    };
    {
        std::string list;
        for (const auto& c : plan.toDelete)
            list += (list.empty() ? "" : ", ") + std::to_string(c.epoch);
        note("pruning: keep " + std::string(toString(plan.policy.mode)) + " " +
             std::to_string(plan.policy.keepLimit) + ": " +
             (plan.toTrash ? "moving to the trash" : "removing") + " epochs [" + list + "] (" +
             std::to_string(plan.bytesFreed) + " bytes) by " + actor);
    }

    const std::uint64_t total = plan.toDelete.size() + plan.leftovers.size();
    std::uint64_t done = 0;
    for (const auto& c : plan.toDelete) {
        if (progress.cancelled()) {
            out.cancelled = true;
            break;
        }
        progress.report({done++, total, "epochs", c.dir});
        auto skip = [&](std::string why) {
            note("not removing: " + c.dir + ": " + why);
            out.skipped.push_back({c.epoch, std::move(why)});
        };
        const fs::path dir(c.dir);
        if (dir.parent_path() != epochsDir ||
            layout->epochNumberOf(dir.filename().string()) != c.epoch) {
            skip("not an epoch directory of " + root.string());
            continue;
        }
        Protection now = protectionOnDisk(root, *layout);
        if (now.unreadable) {
            skip("cannot tell which epochs the links protect: " + now.notes.back());
            continue;
        }
        if (auto it = now.epochs.find(c.epoch); it != now.epochs.end()) {
            skip("it is now " + reasonsText(it->second));
            continue;
        }
        struct stat st
        {};
        if (::lstat(dir.c_str(), &st) != 0) {
            skip(errno == ENOENT ? "already gone" : osError(dir, errno));
            continue;
        }
        if (static_cast<std::uint64_t>(st.st_dev) != c.device ||
            static_cast<std::uint64_t>(st.st_ino) != c.inode) {
            skip("the directory was replaced since the plan (saved again?)");
            continue;
        }

        // Renamed aside first (or into the trash): the epoch disappears as a
        // whole, and a crash during the removal leaves a hidden
        // .NNN.deleting-* that no reader takes for an epoch.
        TrashedItem trashed;
        fs::path aside;
        if (plan.toTrash) {
            auto moved = Trash::move(dir.string());
            if (!moved) {
                skip("cannot move it to the trash: " + moved.error().message);
                continue;
            }
            trashed = std::move(*moved);
            aside = trashed.trashed;
        } else {
            aside = epochsDir / asideName(dir.filename().string());
            if (renameNoReplace(dir, aside) != 0) {
                skip("cannot move it aside: " + osError(dir, errno));
                continue;
            }
        }
        struct stat moved
        {};
        Protection after = protectionOnDisk(root, *layout);
        auto became = after.epochs.find(c.epoch);
        const bool same = ::lstat(aside.c_str(), &moved) == 0 && moved.st_dev == st.st_dev &&
                          moved.st_ino == st.st_ino;
        if (!same || after.unreadable || became != after.epochs.end()) {
            // A link moved onto it (or the directory was swapped) in the
            // window: put it back untouched.
            const std::string why =
                !same ? "the directory was replaced while being moved aside"
                : after.unreadable
                    ? "cannot tell which epochs the links protect"
                    : "it became " + reasonsText(became->second) + " during the prune";
            const bool back =
                plan.toTrash ? Trash::restore(trashed).ok() : renameNoReplace(aside, dir) == 0;
            if (!back) {
                const std::string kept = "; left untouched at " + aside.string() +
                                         " (rename it back to " + dir.string() + ")";
                out.warnings.push_back(c.dir + ": " + why + kept);
                skip(why + kept);
            } else {
                skip(why);
            }
            continue;
        }
        if (plan.toTrash) {
            note("moving to the trash: " + c.dir + " (" + std::to_string(c.bytes) + " bytes) as " +
                 trashed.trashed + " by " + actor);
            out.trashed.push_back({c.epoch, std::move(trashed), c.bytes, c.device, c.inode});
            out.deleted.push_back(c.epoch);
            out.bytesFreed += c.bytes;
            continue;
        }
        std::error_code ec;
        fs::remove_all(aside, ec);
        if (ec) {
            const std::string msg = c.dir + ": moved aside to " + aside.string() +
                                    " but not fully removed: " + ec.message();
            out.warnings.push_back(msg);
            note("removing: " + msg);
            continue;
        }
        note("removing: " + c.dir + " (" + std::to_string(c.bytes) + " bytes) by " + actor);
        out.deleted.push_back(c.epoch);
        out.bytesFreed += c.bytes;
    }

    for (const auto& left : plan.leftovers) {
        if (out.cancelled || progress.cancelled()) {
            out.cancelled = true;
            break;
        }
        progress.report({done++, total, "epochs", left});
        const fs::path p(left);
        if (p.parent_path() != epochsDir || !asideEpoch(*layout, p.filename().string()))
            continue;
        const std::uint64_t bytes = treeBytes(p);
        if (plan.toTrash) {
            auto moved = Trash::move(left);
            if (!moved) {
                out.warnings.push_back(left + ": " + moved.error().message);
                continue;
            }
            note("moving to the trash: " + left + " (left by an interrupted prune, " +
                 std::to_string(bytes) + " bytes) as " + moved->trashed + " by " + actor);
            out.trashed.push_back({-1, std::move(*moved), bytes, 0, 0});
            out.bytesFreed += bytes;
            continue;
        }
        std::error_code ec;
        fs::remove_all(p, ec);
        if (ec) {
            out.warnings.push_back(left + ": not fully removed: " + ec.message());
            continue;
        }
        note("removing: " + left + " (left by an interrupted prune, " + std::to_string(bytes) +
             " bytes) by " + actor);
        out.bytesFreed += bytes;
    }
    progress.report({done, total, "epochs", {}});
    return out;
}

Result<Pruner::Restored> Pruner::restore(const std::string& rootText, const std::string& layoutName,
                                         const std::vector<TrashedEpoch>& trashed,
                                         const std::string& actorIn)
{
    const fs::path root(rootText);
    const Layout* layout = findLayout(layoutName);
    if (!layout)
        return Error::at(rootText, "unknown layout " + layoutName);
    auto lock = RunLock::acquire(root);
    if (!lock)
        return lock.error();
    const AuditLog audit(*layout, root);
    const std::string actor = actorIn.empty() ? AuditLog::defaultActor() : actorIn;
    Restored out;
    for (const TrashedEpoch& t : trashed) {
        if (Status st = Trash::restore(t.item); !st) {
            out.failures.push_back(st.error().message);
            continue;
        }
        (void)audit.write("restoring: " + t.item.original + " from the trash (" + t.item.trashed +
                          ") by " + actor);
        if (t.epoch >= 0)
            out.epochs.push_back(t.epoch);
    }
    return out;
}

} // namespace ckpt
