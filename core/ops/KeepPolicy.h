#pragma once

#include <optional>
#include <set>
#include <string_view>
#include <vector>

namespace ckpt {

enum class KeepMode { Linear, Exponential };
std::optional<KeepMode> keepModeFromString(std::string_view name);
std::string_view toString(KeepMode mode);

// Which epochs a keep policy keeps. `epochs` are the candidate epochs (sorted
// ascending); `protectedEpochs` (the newest, last/best targets) are always kept
// and do not count against the limit.
struct KeepPolicy
{
    KeepMode mode = KeepMode::Linear;
    int keepLimit = 1000000;

    // Returns the epochs to delete, ascending.
    std::vector<int> toDelete(const std::vector<int>& epochs,
                              const std::set<int>& protectedEpochs) const;
};

} // namespace ckpt
