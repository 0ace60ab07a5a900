#include "watch/RunDiff.h"

#include <cstring>

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
    head.dir = run.dir;
    head.layout = run.layout;
    head.links = run.links;
    head.sources = run.sources;
    head.inProgress = run.inProgress;
    head.problems = run.problems;
    return head;
}

bool RunDiff::sameHead(const Run& a, const Run& b)
{
    if (a.links.size() != b.links.size() || a.sources.size() != b.sources.size() ||
        a.inProgress.size() != b.inProgress.size())
        return false;
    for (std::size_t i = 0; i < a.links.size(); ++i)
        if (!sameLink(a.links[i], b.links[i]))
            return false;
    for (std::size_t i = 0; i < a.sources.size(); ++i)
        if (a.sources[i].kind != b.sources[i].kind || a.sources[i].path != b.sources[i].path)
            return false;
    for (std::size_t i = 0; i < a.inProgress.size(); ++i)
        if (a.inProgress[i].path != b.inProgress[i].path ||
            a.inProgress[i].epoch != b.inProgress[i].epoch)
            return false;
    return sameProblems(a.problems, b.problems);
}

bool RunDiff::sameEpoch(const Epoch& a, const Epoch& b)
{
    if (a.number != b.number || a.step != b.step || a.dir != b.dir ||
        a.files.size() != b.files.size() || a.metadata != b.metadata ||
        a.metrics.size() != b.metrics.size())
        return false;
    for (std::size_t i = 0; i < a.files.size(); ++i) {
        const EpochFile& x = a.files[i];
        const EpochFile& y = b.files[i];
        if (x.name != y.name || x.bytes != y.bytes || x.present != y.present || x.algo != y.algo ||
            x.checksum != y.checksum || x.mtimeNs != y.mtimeNs || x.inode != y.inode)
            return false;
    }
    // Metric values by their bits: NaN compares unequal to itself.
    for (std::size_t i = 0; i < a.metrics.size(); ++i)
        if (a.metrics[i].name != b.metrics[i].name ||
            std::memcmp(&a.metrics[i].value, &b.metrics[i].value, sizeof(double)) != 0)
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

std::vector<RunLink> RunDiff::changedLinks(const Run& before, const Run& after)
{
    std::vector<RunLink> out;
    // In the order the links had before, then the new ones.
    for (const auto& l : before.links) {
        const RunLink* now = after.link(l.name);
        if (!now)
            out.push_back(removedLink(l.name));
        else if (!sameLink(l, *now))
            out.push_back(*now);
    }
    for (const auto& l : after.links)
        if (!before.link(l.name))
            out.push_back(l);
    return out;
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
    changes.links = changedLinks(before, after);
    if (before.saveInProgress() != after.saveInProgress())
        changes.saveInProgress = after.saveInProgress();
    return changes;
}

} // namespace ckpt
