#pragma once

#include "tensor/TensorSource.h"

#include <algorithm>
#include <cstdint>
#include <vector>

// What a user's view of a non-HDF5 model file does with it: list the tensors,
// the attributes and problems, then read every numeric tensor from start to end
// in blocks (as statistics and diffs stream them), plus a read that starts in
// the middle and one past the end, which must fail cleanly.
inline void fuzzWholeTensorSource(const ckpt::TensorSource& source)
{
    (void)source.format();
    (void)source.attributes();
    (void)source.problems();
    // Enough for every honest tensor of a 256 KiB input; a listing that claims
    // more than the file can hold is still read up to this budget per input.
    constexpr std::uint64_t kBudget = 4ull << 20;
    constexpr std::uint64_t kBlock = 4096;
    std::uint64_t spent = 0;
    std::vector<char> buf;
    const auto& tensors = source.tensors();
    for (std::size_t t = 0; t < tensors.size(); ++t) {
        const ckpt::TensorInfo& info = tensors[t];
        if (!info.dtype.numeric() || info.dtype.size <= 0 || info.dtype.size > 16)
            continue;
        const auto size = static_cast<std::uint64_t>(info.dtype.size);
        for (std::uint64_t first = 0; first < info.elements && spent < kBudget;) {
            const std::uint64_t count = std::min(kBlock, info.elements - first);
            buf.assign(static_cast<std::size_t>(count * size), 0);
            spent += count * size;
            if (!source.read(t, first, count, buf.data()))
                break;
            first += count;
        }
        if (info.elements > 2) {
            buf.assign(static_cast<std::size_t>(size), 0);
            (void)source.read(t, info.elements / 2, 1, buf.data());
        }
        buf.assign(static_cast<std::size_t>(size), 0);
        (void)source.read(t, info.elements, 1, buf.data());
    }
}
