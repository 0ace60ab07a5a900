#include "hdf5/BlockPlan.h"

#include <algorithm>

namespace ckpt {

BlockPlan::BlockPlan(std::vector<std::uint64_t> shape, const std::vector<std::uint64_t>& chunk,
                     std::uint64_t maxElements)
    : m_shape(std::move(shape))
{
    maxElements = std::max<std::uint64_t>(maxElements, 1);
    m_total = 1;
    for (std::uint64_t d : m_shape)
        m_total *= d;
    if (m_total == 0) {
        m_done = true;
        return;
    }
    if (m_shape.empty())
        return; // a scalar: one block of one element
    std::size_t d = m_shape.size() - 1;
    while (d > 0 && m_inner * m_shape[d] <= maxElements) {
        m_inner *= m_shape[d];
        --d;
    }
    m_dim = d;
    m_step = std::clamp<std::uint64_t>(maxElements / m_inner, 1, m_shape[d]);
    if (chunk.size() == m_shape.size() && chunk[d] > 0 && chunk[d] < m_shape[d] &&
        m_step >= chunk[d])
        m_step = m_step / chunk[d] * chunk[d];
    m_outer.assign(d, 0);
}

bool BlockPlan::next(Block& out)
{
    if (m_done)
        return false;
    if (m_shape.empty()) {
        out = Block{{}, {}, 1, 0, true};
        m_done = true;
        return true;
    }
    const std::uint64_t extent = std::min(m_step, m_shape[m_dim] - m_pos);
    out.start.assign(m_shape.size(), 0);
    out.count = m_shape;
    for (std::size_t i = 0; i < m_dim; ++i) {
        out.start[i] = m_outer[i];
        out.count[i] = 1;
    }
    out.start[m_dim] = m_pos;
    out.count[m_dim] = extent;
    out.elements = extent * m_inner;
    out.offset = m_offset;
    out.whole = out.elements == m_total;
    m_offset += out.elements;

    m_pos += extent;
    if (m_pos >= m_shape[m_dim]) {
        m_pos = 0;
        // Odometer over the outer dimensions.
        std::size_t i = m_dim;
        while (i > 0) {
            --i;
            if (++m_outer[i] < m_shape[i])
                break;
            m_outer[i] = 0;
            if (i == 0)
                m_done = true;
        }
        if (m_dim == 0)
            m_done = true;
    }
    return true;
}

} // namespace ckpt
