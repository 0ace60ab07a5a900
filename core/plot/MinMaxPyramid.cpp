#include "plot/MinMaxPyramid.h"

#include <algorithm>
#include <cmath>

namespace ckpt {

namespace {

constexpr int kFan = 16;
using Block = MinMaxPyramid::Block;

void take(Block& b, double v, int i)
{
    if (std::isnan(v))
        return;
    if (b.at.min < 0) {
        b = Block{v, v, {i, i}};
        return;
    }
    if (v < b.low) {
        b.low = v;
        b.at.min = i;
    }
    if (v > b.high) {
        b.high = v;
        b.at.max = i;
    }
}

void merge(Block& b, const Block& other)
{
    if (other.at.min < 0)
        return;
    if (b.at.min < 0) {
        b = other;
        return;
    }
    if (other.low < b.low) {
        b.low = other.low;
        b.at.min = other.at.min;
    }
    if (other.high > b.high) {
        b.high = other.high;
        b.at.max = other.at.max;
    }
}

} // namespace

void MinMaxPyramid::build(std::span<const double> values)
{
    m_levels.clear();
    m_size = int(values.size());
    if (m_size == 0)
        return;
    std::vector<Block> level((values.size() + kFan - 1) / kFan);
    for (int i = 0; i < m_size; ++i)
        take(level[std::size_t(i >> kFanBits)], values[std::size_t(i)], i);
    m_levels.push_back(std::move(level));
    while (m_levels.back().size() > 1) {
        const std::vector<Block>& below = m_levels.back();
        std::vector<Block> above((below.size() + kFan - 1) / kFan);
        for (std::size_t b = 0; b < below.size(); ++b)
            merge(above[b >> kFanBits], below[b]);
        m_levels.push_back(std::move(above));
    }
}

void MinMaxPyramid::append(std::span<const double> values)
{
    for (int i = m_size; i < int(values.size()); i = ++m_size) {
        if (m_levels.empty())
            m_levels.emplace_back();
        for (std::size_t k = 0; k < m_levels.size(); ++k) {
            const std::size_t block = std::size_t(i) >> (kFanBits * (k + 1));
            if (block == m_levels[k].size())
                m_levels[k].emplace_back();
            take(m_levels[k][block], values[std::size_t(i)], i);
        }
        // The top level holds one block: a second one there starts a level above.
        while (m_levels.back().size() > 1) {
            Block top;
            for (const Block& b : m_levels.back())
                merge(top, b);
            m_levels.push_back({top});
        }
    }
}

MinMaxPyramid::Extremes MinMaxPyramid::extremes(std::span<const double> values, int begin,
                                                int end) const
{
    Block out;
    // Entries past what was summarised (none when the caller kept up) one by one.
    for (int i = std::max(begin, m_size); i < end; ++i)
        take(out, values[std::size_t(i)], i);
    // Units of 16^level entries: single entries first, then whole blocks of a
    // level, from both ends of the range inwards.
    const auto unit = [&](int level, int u) {
        if (level == 0)
            take(out, values[std::size_t(u)], u);
        else
            merge(out, m_levels[std::size_t(level - 1)][std::size_t(u)]);
    };
    int lo = begin;
    int hi = std::min(end, m_size);
    for (int level = 0; lo < hi; ++level) {
        if (hi - lo < 2 * kFan || level == int(m_levels.size())) {
            for (int u = lo; u < hi; ++u)
                unit(level, u);
            break;
        }
        for (; lo % kFan != 0; ++lo)
            unit(level, lo);
        for (; hi % kFan != 0; --hi)
            unit(level, hi - 1);
        lo /= kFan;
        hi /= kFan;
    }
    return out.at;
}

} // namespace ckpt
