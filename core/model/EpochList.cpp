#include "model/EpochList.h"

#include <utility>

namespace ckpt {

struct EpochList::Block : SharedCount
{
    Vector epochs;

    static void destroy(Block* block) { delete block; }
};

namespace {
const EpochList::Vector kNoEpochs;

EpochList::Vector& recycled()
{
    thread_local EpochList::Vector epochs;
    return epochs;
}
} // namespace

void EpochList::recycle(EpochList&& list)
{
    if (!list.m_block.unique())
        return;
    Vector& kept = recycled();
    if (list.m_block->epochs.size() > kept.size())
        kept = std::move(list.m_block->epochs);
    list.m_block.reset();
}

EpochList::Vector EpochList::takeRecycled()
{
    return std::exchange(recycled(), Vector());
}

EpochList::EpochList() noexcept = default;
EpochList::EpochList(const EpochList& other) noexcept = default;
EpochList::EpochList(EpochList&& other) noexcept = default;
EpochList& EpochList::operator=(const EpochList& other) noexcept = default;
EpochList& EpochList::operator=(EpochList&& other) noexcept = default;
EpochList::~EpochList() = default;

void EpochList::clear()
{
    m_block.reset();
}

EpochList::EpochList(Vector epochs)
{
    if (!epochs.empty()) {
        m_block.reset(new Block);
        m_block->epochs = std::move(epochs);
    }
}

const EpochList::Vector& EpochList::items() const
{
    return m_block ? m_block->epochs : kNoEpochs;
}

EpochList::Vector& EpochList::edit()
{
    if (!m_block) {
        m_block.reset(new Block);
    } else if (!m_block.unique()) {
        auto* own = new Block;
        own->epochs = m_block->epochs;
        m_block.reset(own);
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
