#pragma once

#include <optional>
#include <set>
#include <string_view>
#include <vector>

namespace ckpt {

enum class KeepMode
{
    Linear,
    Exponential
};
std::optional<KeepMode> keepModeFromString(std::string_view name);
std::string_view toString(KeepMode mode);

// Which epochs a keep policy keeps. `epochs` are the candidate epochs (sorted
// ascending); `protectedEpochs` (the newest, last/best targets) are always kept.
// keepLimit counts the policy's own picks, newest first: linear picks the newest
// keepLimit epochs (CANDLE's clean(), where protected epochs inside that window
// count against the limit and those outside it do not); exponential picks the
// newest epoch N and the newest epoch at or before N-1, N-2, N-4, ... up to
// keepLimit picks. Protected epochs are kept in addition to the picks.
struct KeepPolicy
{
    KeepMode mode = KeepMode::Linear;
    int keepLimit = 1000000;

    // Returns the epochs to delete, ascending.
    std::vector<int> toDelete(const std::vector<int>& epochs,
                              const std::set<int>& protectedEpochs) const;
};

} // namespace ckpt
