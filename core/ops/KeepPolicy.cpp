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

std::vector<int> KeepPolicy::toDelete(const std::vector<int>& epochs,
                                      const std::set<int>& protectedEpochs) const
{
    std::set<int> keep(protectedEpochs.begin(), protectedEpochs.end());
    int budget = std::max(0, keepLimit);
    if (mode == KeepMode::Linear) {
        // CANDLE's rule: walking newest first, keep up to keep_limit others.
        for (auto it = epochs.rbegin(); it != epochs.rend() && budget > 0; ++it)
            if (keep.insert(*it).second)
                --budget;
    } else if (!epochs.empty()) {
        // Exponential: from the newest epoch N, keep the newest epoch at or
        // before N-1, N-2, N-4, N-8, ...: dense recent history, sparse old one.
        const int newest = epochs.back();
        for (long step = 1; budget > 0; step *= 2) {
            const long target = newest - step;
            if (target < epochs.front())
                break;
            auto it = std::upper_bound(epochs.begin(), epochs.end(), static_cast<int>(target));
            if (it == epochs.begin())
                break;
            --it;
            if (keep.insert(*it).second)
                --budget;
        }
    }
    std::vector<int> out;
    for (int e : epochs)
        if (!keep.count(e))
            out.push_back(e);
    return out;
}

} // namespace ckpt
