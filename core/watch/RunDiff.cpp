#include "watch/RunDiff.h"

#include <cstring>

namespace ckpt {

namespace {

bool sameProblems(const Problems& a, const Problems& b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (a[i].kind != b[i].kind || a[i].message != b[i].message || a[i].path != b[i].path)
            return false;
    }
    return true;
}

} // namespace

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
            x.checksum != y.checksum)
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
