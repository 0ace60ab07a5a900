#pragma once

#include "common/Progress.h"
#include "common/Result.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace ckpt {

// CRC-32 exactly as CANDLE computes it: Python's zlib.crc32 (IEEE, reflected,
// initial value 0), stored as the decimal string of the unsigned result.
class Crc32
{
public:
    // Continues `crc` over `data` (start with 0).
    static std::uint32_t update(std::uint32_t crc, const void* data, std::size_t size);

    // CRC of a whole file, read in large blocks, in parts on every core when it
    // is at least kParallelBytes. Cancellation and per-block progress (unit
    // "bytes") through `progress`.
    static Result<std::uint32_t> ofFile(const std::filesystem::path& path,
                                        const Progress& progress = Progress::none());

    // CRC of A followed by B, from crc(A), crc(B) and B's length (zlib's
    // crc32_combine): lets parts of one file be checked in parallel.
    static std::uint32_t combine(std::uint32_t crcA, std::uint32_t crcB, std::uint64_t bytesB);

    static constexpr std::uint64_t kParallelBytes = std::uint64_t{64} << 20;

    static std::string toDecimal(std::uint32_t crc) { return std::to_string(crc); }
};

} // namespace ckpt
