#include "model/EpochList.h"

#include <atomic>
#include <cstdint>

namespace ckpt {

struct EpochList::Block
{
    std::atomic<std::uint32_t> refs{1};
    Vector epochs;
};

namespace {
const EpochList::Vector kNoEpochs;
} // namespace

EpochList::EpochList(Vector epochs)
{
    if (!epochs.empty())
        m_block = new Block{{1}, std::move(epochs)};
}

EpochList::EpochList(const EpochList& other) noexcept : m_block(other.m_block)
{
    if (m_block)
        m_block->refs.fetch_add(1, std::memory_order_relaxed);
}

EpochList& EpochList::operator=(const EpochList& other) noexcept
{
    Block* shared = other.m_block; // read first: `other` may be this object
    if (shared)
        shared->refs.fetch_add(1, std::memory_order_relaxed);
    release();
    m_block = shared;
    return *this;
}

EpochList& EpochList::operator=(EpochList&& other) noexcept
{
    if (this != &other) {
        release();
        m_block = std::exchange(other.m_block, nullptr);
    }
    return *this;
}

void EpochList::release() noexcept
{
    Block* block = std::exchange(m_block, nullptr);
    if (block && block->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
        delete block;
}

const EpochList::Vector& EpochList::items() const
{
    return m_block ? m_block->epochs : kNoEpochs;
}

EpochList::Vector& EpochList::edit()
{
    if (!m_block) {
        m_block = new Block;
    } else if (m_block->refs.load(std::memory_order_acquire) != 1) {
        auto* own = new Block{{1}, m_block->epochs};
        release();
        m_block = own;
    }
    return m_block->epochs;
}

void EpochList::shrink_to_fit()
{
    if (m_block && m_block->epochs.capacity() != m_block->epochs.size())
        edit().shrink_to_fit();
}

EpochList::iterator EpochList::insert(const_iterator pos, Epoch epoch)
{
    const difference_type at = indexOf(pos);
    Vector& v = edit();
    return v.insert(v.begin() + at, std::move(epoch));
}

EpochList::iterator EpochList::erase(const_iterator pos)
{
    const difference_type at = indexOf(pos);
    Vector& v = edit();
    return v.erase(v.begin() + at);
}

EpochList::iterator EpochList::erase(const_iterator first, const_iterator last)
{
    const difference_type from = indexOf(first);
    const difference_type to = indexOf(last);
    Vector& v = edit();
    return v.erase(v.begin() + from, v.begin() + to);
}

} // namespace ckpt
