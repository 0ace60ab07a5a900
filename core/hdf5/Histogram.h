#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace ckpt {

// Counts of a tensor's finite values in equal bins over [lo, hi]. Bin i holds
// lo + i*w <= v < lo + (i+1)*w, the last bin also v == hi. NaN and +/-Inf are
// counted apart and never binned.
struct Histogram
{
    double lo = std::numeric_limits<double>::quiet_NaN();
    double hi = std::numeric_limits<double>::quiet_NaN();
    std::vector<std::uint64_t> counts;
    std::uint64_t finite = 0;
    std::uint64_t nan = 0;
    std::uint64_t inf = 0;

    int bins() const { return static_cast<int>(counts.size()); }
    double binWidth() const { return counts.empty() ? 0.0 : (hi - lo) / double(counts.size()); }
    double binCenter(int bin) const { return lo + (bin + 0.5) * binWidth(); }
};

} // namespace ckpt
