#pragma once

#include <atomic>
#include <cstdint>
#include <utility>

namespace ckpt {

// The reference count a shared block starts with: one owner.
struct SharedCount
{
    std::atomic<std::uint32_t> refs{1};
};

// An intrusive, thread-safe counted reference to a copy-on-write buffer: the
// handle EpochList and KeyValues share their buffers through. `Block` derives
// from SharedCount and frees itself in `static void destroy(Block*)`; both may
// stay incomplete where the handle is only declared (the owning class defines
// its special members where Block is complete).
template <typename Block> class SharedBlock
{
public:
    SharedBlock() noexcept = default;
    // Takes over a new block (its count is one).
    explicit SharedBlock(Block* owned) noexcept : m_block(owned) {}
    SharedBlock(const SharedBlock& other) noexcept : m_block(other.m_block)
    {
        if (m_block)
            m_block->refs.fetch_add(1, std::memory_order_relaxed);
    }
    SharedBlock(SharedBlock&& other) noexcept : m_block(std::exchange(other.m_block, nullptr)) {}
    // Copy-and-swap: safe when `other` is this handle or shares its block.
    SharedBlock& operator=(const SharedBlock& other) noexcept
    {
        SharedBlock copy(other);
        swap(copy);
        return *this;
    }
    SharedBlock& operator=(SharedBlock&& other) noexcept
    {
        SharedBlock moved(std::move(other));
        swap(moved);
        return *this;
    }
    ~SharedBlock() { reset(); }

    // Lets go of the block (freed with its last reference) and takes `owned`.
    void reset(Block* owned = nullptr) noexcept
    {
        Block* block = std::exchange(m_block, owned);
        if (block && block->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
            Block::destroy(block);
    }
    void swap(SharedBlock& other) noexcept { std::swap(m_block, other.m_block); }

    Block* get() const noexcept { return m_block; }
    Block* operator->() const noexcept { return m_block; }
    explicit operator bool() const noexcept { return m_block != nullptr; }
    // No other handle reads this block: writing to it is safe.
    bool unique() const noexcept
    {
        return m_block && m_block->refs.load(std::memory_order_acquire) == 1;
    }
    bool sameBlock(const SharedBlock& other) const noexcept
    {
        return m_block && m_block == other.m_block;
    }

private:
    Block* m_block = nullptr;
};

} // namespace ckpt
