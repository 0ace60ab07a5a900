#include "checksum/Crc32.h"

#include "checksum/CrcReader.h"
#include "io/RegularFile.h"

#include <algorithm>
#include <atomic>
#include <fcntl.h>
#include <isa-l/crc.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>
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
    auto opened = RegularFile::open(path);
    if (!opened)
        return opened.error();
    const int fd = opened->release();
    struct stat st
    {};
    const std::uint64_t total = ::fstat(fd, &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);

    // A big model is read in parts on every core and the parts' CRCs combined
    // (a restart's check of a 1 GiB epoch is on the user's critical path);
    // the last part reads to the end, so a file still growing is read whole.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const std::uint64_t parts =
        total < kParallelBytes ? 1 : std::min<std::uint64_t>(cores, total / (kParallelBytes / 2));
    const std::uint64_t partBytes = total / parts;
    std::atomic<std::uint64_t> done{0};
    std::vector<Result<CrcReader::Outcome>> outcomes(parts, Error{"not read", path.string()});
    auto readPart = [&](std::uint64_t i) {
        CrcReader reader;
        const std::uint64_t offset = i * partBytes;
        const std::uint64_t length = i + 1 == parts ? CrcReader::kToEnd : partBytes;
        outcomes[i] = reader.crcRange(fd, path, offset, length, [&](std::uint64_t bytes) {
            if (progress.cancelled())
                return false;
            const std::uint64_t now = done.fetch_add(bytes) + bytes;
            // Progress callbacks are not thread-safe: the first part reports all.
            if (i == 0 && progress.hasCallback())
                progress.report({now, std::max(total, now), "bytes", path.string()});
            return true;
        });
    };
    {
        std::vector<std::jthread> others;
        for (std::uint64_t i = 1; i < parts; ++i)
            others.emplace_back(readPart, i);
        readPart(0);
    }
    ::close(fd);
    if (parts > 1 && progress.hasCallback() && !progress.cancelled())
        progress.report({done.load(), std::max(total, done.load()), "bytes", path.string()});
    std::uint32_t crc = 0;
    for (const auto& outcome : outcomes) {
        if (!outcome)
            return outcome.error();
        crc = combine(crc, outcome->crc, outcome->bytes);
    }
    return crc;
}

} // namespace ckpt
