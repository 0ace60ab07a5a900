#include "ops/KeepPolicy.h"

#include <algorithm>

namespace ckpt {

std::optional<KeepMode> keepModeFromString(std::string_view name)
{
    if (name == "linear")
        return KeepMode::Linear;
    if (name == "exponential")
        return KeepMode::Exponential;
    return std::nullopt;
}

std::string_view toString(KeepMode mode)
{
    return mode == KeepMode::Linear ? "linear" : "exponential";
}

std::vector<int> KeepPolicy::toDelete(const std::vector<int>& epochsIn,
                                      const std::set<int>& protectedEpochs) const
{
    // Callers pass sorted lists, but a wrong order here would delete the wrong
    // epochs, so normalise instead of trusting.
    std::vector<int> epochs = epochsIn;
    std::sort(epochs.begin(), epochs.end());
    epochs.erase(std::unique(epochs.begin(), epochs.end()), epochs.end());

    std::set<int> keep(protectedEpochs.begin(), protectedEpochs.end());
    const auto limit = static_cast<std::size_t>(std::max(0, keepLimit));
    if (mode == KeepMode::Linear) {
        // CANDLE's clean(): walking newest first, an epoch is kept when it is
        // protected or fewer than keep_limit epochs were kept before it, and
        // the protected ones count too. That is exactly: the newest keep_limit
        // epochs, plus the protected ones wherever they are.
        std::size_t taken = 0;
        for (auto it = epochs.rbegin(); it != epochs.rend() && taken < limit; ++it, ++taken)
            keep.insert(*it);
    } else if (!epochs.empty() && limit > 0) {
        // Exponential: picks the newest epoch N, then the newest epoch at or
        // before N-1, N-2, N-4, N-8, ...: dense recent history, sparse old one.
        // As in linear mode, keep_limit counts the picks (a protected epoch
        // counts when it is also a pick) and protected epochs are kept anyway.
        const long long newest = epochs.back();
        std::set<int> picks{epochs.back()};
        for (long long step = 1; picks.size() < limit; step *= 2) {
            const long long target = newest - step;
            if (target < epochs.front())
                break;
            auto it = std::upper_bound(epochs.begin(), epochs.end(), target,
                                       [](long long t, int e) { return t < e; });
            picks.insert(*std::prev(it)); // target >= front: *prev(it) <= target exists
        }
        keep.insert(picks.begin(), picks.end());
    }
    std::vector<int> out;
    for (int e : epochs)
        if (!keep.count(e))
            out.push_back(e);
    return out;
}

} // namespace ckpt
