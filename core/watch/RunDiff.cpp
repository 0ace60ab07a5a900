#include "watch/RunDiff.h"

namespace ckpt {

bool RunDiff::sameProblems(const Problems& a, const Problems& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].kind != b[i].kind || a[i].message != b[i].message || a[i].path != b[i].path)
            return false;
    }
    return true;
}

Run RunDiff::headOf(const Run& run)
{
    Run head;
    head.root = run.root;
    head.layout = run.layout;
    head.last = run.last;
    head.best = run.best;
    head.ckptLog = run.ckptLog;
    head.trainingLog = run.trainingLog;
    head.historyTxt = run.historyTxt;
    head.workDir = run.workDir;
    head.problems = run.problems;
    return head;
}

bool RunDiff::sameHead(const Run& a, const Run& b)
{
    return sameLink(a.last, b.last) && sameLink(a.best, b.best) && a.workDir == b.workDir &&
           a.ckptLog == b.ckptLog && a.trainingLog == b.trainingLog &&
           a.historyTxt == b.historyTxt && sameProblems(a.problems, b.problems);
}

bool RunDiff::sameEpoch(const Epoch& a, const Epoch& b)
{
    if (a.number != b.number || a.dir != b.dir || a.modelPath != b.modelPath ||
        a.modelBytes != b.modelBytes || a.modelMtimeNs != b.modelMtimeNs ||
        a.modelInode != b.modelInode || a.info.has_value() != b.info.has_value())
        return false;
    // raw holds every key as read (NaN compares unequal to itself: dump instead).
    if (a.info && a.info->raw.dump() != b.info->raw.dump())
        return false;
    return sameProblems(a.problems, b.problems);
}

bool RunDiff::sameLink(const std::optional<RunLink>& a, const std::optional<RunLink>& b)
{
    if (a.has_value() != b.has_value())
        return false;
    if (!a)
        return true;
    return a->name == b->name && a->path == b->path && a->target == b->target &&
           a->epoch == b->epoch && a->relocated == b->relocated && a->symlink == b->symlink;
}

RunLink RunDiff::removedLink(const std::string& name)
{
    RunLink link;
    link.name = name;
    link.symlink = false;
    return link;
}

RunChanges RunDiff::diff(const Run& before, const Run& after)
{
    RunChanges changes;
    // Both epoch lists are sorted by number: one merge pass.
    auto a = before.epochs.begin();
    auto b = after.epochs.begin();
    while (a != before.epochs.end() || b != after.epochs.end()) {
        if (b == after.epochs.end() || (a != before.epochs.end() && a->number < b->number)) {
            changes.removed.push_back(a->number);
            ++a;
        } else if (a == before.epochs.end() || b->number < a->number) {
            changes.added.push_back(*b);
            ++b;
        } else {
            if (!sameEpoch(*a, *b))
                changes.changed.push_back(*b);
            ++a;
            ++b;
        }
    }
    if (!sameLink(before.last, after.last))
        changes.links.push_back(after.last ? *after.last : removedLink("last"));
    if (!sameLink(before.best, after.best))
        changes.links.push_back(after.best ? *after.best : removedLink("best"));
    if (before.workDir.empty() != after.workDir.empty())
        changes.saveInProgress = !after.workDir.empty();
    return changes;
}

} // namespace ckpt
