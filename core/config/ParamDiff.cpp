#include "config/ParamDiff.h"

#include <algorithm>

namespace ckpt {

const char* ParamChange::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Added:
        return "added";
    case Kind::Removed:
        return "removed";
    case Kind::Changed:
        return "changed";
    }
    return "changed";
}

std::vector<ParamChange> ParamDiff::compare(const ParamSet& before, const ParamSet& after)
{
    std::vector<ParamChange> changes;
    for (const ParamSet::Param& a : before.params()) {
        const ParamSet::Param* b = after.find(a.key);
        if (!b) {
            changes.push_back(
                {ParamChange::Kind::Removed, a.section, a.key, a.value, std::nullopt, a.line, 0});
        } else if (!a.value.equivalent(b->value)) {
            changes.push_back({ParamChange::Kind::Changed, b->section, a.key, a.value, b->value,
                               a.line, b->line});
        }
    }
    for (const ParamSet::Param& b : after.params())
        if (!before.find(b.key))
            changes.push_back(
                {ParamChange::Kind::Added, b.section, b.key, std::nullopt, b.value, 0, b.line});

    std::vector<std::string> order = before.sections();
    for (const std::string& s : after.sections())
        if (std::find(order.begin(), order.end(), s) == order.end())
            order.push_back(s);
    auto rank = [&order](const std::string& s) {
        return std::find(order.begin(), order.end(), s) - order.begin();
    };
    std::stable_sort(changes.begin(), changes.end(),
                     [&](const ParamChange& x, const ParamChange& y) {
                         return rank(x.section) < rank(y.section);
                     });
    return changes;
}

} // namespace ckpt
