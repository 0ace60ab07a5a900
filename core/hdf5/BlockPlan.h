#pragma once

#include <cstdint>
#include <vector>

namespace ckpt {

// Cuts a dataset into hyperslabs of at most `maxElements` elements, in C order, so
// that reading block after block yields the flattened tensor. Blocks run along
// the outermost dimension whose inner extent fits, aligned to the chunk size
// there, so that each chunk is read (and decompressed) once.
class BlockPlan
{
public:
    struct Block
    {
        std::vector<std::uint64_t> start;
        std::vector<std::uint64_t> count;
        std::uint64_t elements = 0;
        std::uint64_t offset = 0; // flat index of the first element
        bool whole = false;       // the block is the whole dataset
    };

    BlockPlan(std::vector<std::uint64_t> shape, const std::vector<std::uint64_t>& chunk,
              std::uint64_t maxElements);

    // Fills `out` with the next block; false when none is left.
    bool next(Block& out);
    std::uint64_t totalElements() const { return m_total; }

private:
    std::vector<std::uint64_t> m_shape;
    std::vector<std::uint64_t> m_outer; // index over dims [0, m_dim)
    std::size_t m_dim = 0;              // the dimension blocks run along
    std::uint64_t m_step = 1;           // extent of a block along m_dim
    std::uint64_t m_pos = 0;            // position along m_dim
    std::uint64_t m_inner = 1;          // elements per index of m_dim
    std::uint64_t m_total = 0;
    std::uint64_t m_offset = 0;
    bool m_done = false;
};

} // namespace ckpt
