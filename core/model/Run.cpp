#include "model/Run.h"

#include <algorithm>

namespace ckpt {

const Epoch* Run::findEpoch(int number) const
{
    auto it = std::lower_bound(epochs.begin(), epochs.end(), number,
                               [](const Epoch& e, int n) { return e.number < n; });
    return it != epochs.end() && it->number == number ? &*it : nullptr;
}

Epoch* Run::findEpoch(int number)
{
    return const_cast<Epoch*>(std::as_const(*this).findEpoch(number));
}

std::uint64_t Run::totalModelBytes() const
{
    std::uint64_t total = 0;
    for (const auto& e : epochs)
        total += e.modelBytes.value_or(0);
    return total;
}

Problems Run::allProblems() const
{
    Problems all = problems;
    for (const auto& e : epochs)
        all.insert(all.end(), e.problems.begin(), e.problems.end());
    return all;
}

} // namespace ckpt
