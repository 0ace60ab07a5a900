#pragma once

#include <span>
#include <vector>

namespace ckpt {

// Where the smallest and the largest value of any index range of a series lie,
// without walking the range: per block of 16 entries the indices of its
// extremes, per 16 blocks the same, and so on up to one block. A range then
// costs at most 2 x 15 looks per level (O(log n)), and appending an entry one
// update per level, so the M4 reduction (Decimator) of a million points to a
// screen's width costs in proportion to the pixels, not to the points.
// NaN entries are breaks, handled by the decimator apart: they are skipped here.
class MinMaxPyramid
{
public:
    struct Extremes
    {
        int min = -1; // index of the smallest non-NaN value; -1 when there is none
        int max = -1;
    };
    // A block keeps the values too: merging blocks then reads no entry, so a
    // range costs a few cache lines per level instead of two misses per block.
    struct Block
    {
        double low = 0.0;
        double high = 0.0;
        Extremes at;
    };

    // Summarises `values` from scratch.
    void build(std::span<const double> values);
    // Summarises the entries `values` gained since the last build()/append().
    void append(std::span<const double> values);
    // The extremes over entries [begin, end) of the `values` this summarises.
    Extremes extremes(std::span<const double> values, int begin, int end) const;
    int size() const { return m_size; }

private:
    static constexpr int kFanBits = 4; // 16 entries (or blocks) per block

    std::vector<std::vector<Block>> m_levels; // [0]: blocks of 16 entries; the last has one
    int m_size = 0;
};

} // namespace ckpt
