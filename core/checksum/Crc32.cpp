#include "checksum/Crc32.h"

#include "checksum/CrcReader.h"

#include <algorithm>
#include <isa-l/crc.h>
#include <sys/stat.h>
#include <zlib.h>

namespace ckpt {

std::uint32_t Crc32::update(std::uint32_t crc, const void* data, std::size_t size)
{
    // ISA-L's gzip CRC is zlib's CRC-32 (reflected IEEE), folded with PCLMUL:
    // several times faster than zlib's table-driven crc32() (see tests/bench/verify).
    const auto* p = static_cast<const unsigned char*>(data);
    while (size > 0) {
        const auto chunk = static_cast<std::uint64_t>(std::min<std::size_t>(size, 1u << 30));
        crc = crc32_gzip_refl(crc, p, chunk);
        p += chunk;
        size -= chunk;
    }
    return crc;
}

std::uint32_t Crc32::combine(std::uint32_t crcA, std::uint32_t crcB, std::uint64_t bytesB)
{
    // z_off64_t is only declared with large-file support on; Debian's zlib has it,
    // and a 64-bit z_off_t covers every file we read.
    static_assert(sizeof(z_off_t) >= sizeof(std::int64_t));
    return static_cast<std::uint32_t>(crc32_combine(crcA, crcB, static_cast<z_off_t>(bytesB)));
}

Result<std::uint32_t> Crc32::ofFile(const std::filesystem::path& path, const Progress& progress)
{
    std::uint64_t total = 0;
    struct stat st
    {};
    if (::stat(path.c_str(), &st) == 0)
        total = static_cast<std::uint64_t>(st.st_size);
    std::uint64_t done = 0;
    CrcReader reader;
    auto outcome = reader.crcFile(path, [&](std::uint64_t bytes) {
        if (progress.cancelled())
            return false;
        done += bytes;
        if (progress.hasCallback())
            progress.report({done, std::max(total, done), "bytes", path.string()});
        return true;
    });
    if (!outcome)
        return outcome.error();
    return outcome->crc;
}

} // namespace ckpt
