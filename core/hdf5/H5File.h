#pragma once

#include "common/Result.h"
#include "hdf5/H5Handle.h"
#include "hdf5/H5Probe.h"
#include "hdf5/H5Tree.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// One HDF5 file opened read-only. HDF5's file locking is switched off for it, so
// a trainer writing the file is never blocked by us (nor we by it). Every call
// takes the H5Lock; errors name the file and the object.
class H5File
{
public:
    struct DatasetEntry
    {
        std::string path; // absolute, "/layers/dense/vars/0"
        H5DatasetInfo info;
        // The dataset kept open by a light listing (see datasets()), so that
        // reading it does not pay for opening it again; may be invalid.
        std::shared_ptr<H5Handle> handle;
    };

    // A dataset found by the listing: its path and object address, nothing opened.
    struct DatasetLink
    {
        std::string path; // absolute
        std::uint64_t address = ~std::uint64_t{0};
    };

    static constexpr std::size_t kKeepOpen = 50000;
    // Light listings leave `layout` and `chunk` empty below this size.
    static constexpr std::uint64_t kLightLayoutBytes = 1ull << 20;

    // `depth`: what the caller will read (H5Probe::Depth), checked first in a
    // forked copy of the process.
    static Result<H5File> open(const std::string& path,
                               H5Probe::Depth depth = H5Probe::Depth::Everything);

    std::int64_t id() const { return m_file.get(); }
    const std::string& path() const { return m_path; }

    // Where an open dataset's values are kept when not in its own file: its
    // external raw-data files, or a virtual dataset's sources; nullopt when they
    // are in the file. Such values are never read: the named file may be anything
    // (a FIFO that blocks every read, a file outside the run).
    static std::optional<std::string> storedElsewhere(std::int64_t dataset);

    // The largest decoded chunk of a filtered (compressed) dataset read here:
    // HDF5 decodes a whole chunk to read any part of it, so one such chunk is
    // memory held; past this it is refused (a few compressed bytes can claim 4 GB).
    static constexpr std::uint64_t kMaxFilteredChunkBytes = 1'000'000'000;

    struct ChunkCache
    {
        std::uint64_t chunkBytes = 0; // one decoded chunk
        std::uint64_t cacheBytes = 0; // what decodes each chunk once (at most 1 GB)
    };
    // For a chunked dataset with filters: the size of a decoded chunk, and the
    // chunk cache that keeps every chunk a row of BlockPlan blocks touches (the
    // chunks across all but the first dimension), so that each chunk is decoded
    // once, not once per block: HDF5's default cache of 1 MiB holds no chunk
    // larger than that. nullopt for any other dataset (nothing to decode).
    static std::optional<ChunkCache> filteredChunks(std::int64_t dataset);

    // Past this many bytes of values, a dataset storing less than 1/kMaxUnstoredRatio
    // of them in the file (never written, or a few chunks of a huge shape) is not
    // read: HDF5 would make up the rest from the fill value, for as long as a
    // 1 kB file claiming exabytes takes.
    static constexpr std::uint64_t kMaxUnstoredBytes = 1'000'000'000;
    static constexpr std::uint64_t kMaxUnstoredRatio = 1024;

    // Why the values of an open dataset are never read here, or empty: kept in
    // another file (storedElsewhere), compressed chunks decoding to more than
    // kMaxFilteredChunkBytes, or mostly not stored (see kMaxUnstoredBytes).
    // Costs nothing for contiguous values in the file.
    static std::string unreadReason(std::int64_t dataset);
    // "dataset <path>: <reason>; not read": the one wording of that refusal.
    static std::string unreadError(const std::string& datasetPath, const std::string& reason);

    // A file with an object nested deeper than this (the depth of "/a/b" is 2) is
    // refused by every walk: libhdf5's own walk takes time quadratic in the depth
    // (8.5 minutes for a 3 MB file of 3,000 nested groups), and deeper files
    // overflowed the stack. Keras files nest a few levels.
    static constexpr std::ptrdiff_t kMaxDepth = 256;
    // "objects nested deeper than 256 levels; not read".
    static std::string tooDeep();

    // "<file>: <object>: <what> (<HDF5's innermost reason>)".
    Error error(const std::string& object, const std::string& what) const;

    // Every dataset reachable from the root, each object once, depth-first in
    // name order. `light` leaves out what reading values does not need (storage
    // size, filter names) and keeps up to kKeepOpen datasets open for the reader:
    // with thousands of small tensors, opening is what costs.
    Result<std::vector<DatasetEntry>> datasets(bool light = false) const;

    // The same datasets as datasets(), in the same order, without opening any:
    // a caller that reads each one right away opens, reads and closes it in turn
    // (keeping thousands open makes every later HDF5 call slower).
    Result<std::vector<DatasetLink>> datasetLinks() const;
    // Opens one listed dataset, by address (no path traversal), else by path.
    Result<H5Handle> openDataset(const DatasetLink& link) const;

    // The file descriptor HDF5 reads this file through (its default sec2 driver),
    // for reading contiguous raw data with pread; -1 when there is none.
    int rawFd() const { return m_fd; }

    Result<H5DatasetInfo> datasetInfo(std::int64_t dataset, const std::string& objectPath,
                                      bool light = false) const;
    Result<std::vector<H5Attribute>> attributes(std::int64_t object,
                                                const std::string& objectPath) const;

    // The project's name for an HDF5 type; `bfloat16Attr` when the object carries
    // attr dtype="bfloat16" (Keras 3 stores bfloat16 as 16-bit raw values).
    static DType dtypeOf(std::int64_t type, bool bfloat16Attr);
    // A memory type that reads `kind` raw (native byte order, no value conversion).
    static H5Handle memoryType(std::int64_t fileType, DTypeKind kind);
    // True when `object` has a string attribute `name` equal to `value`.
    static bool hasStringAttr(std::int64_t object, const char* name, const std::string& value);

private:
    H5File(H5Handle file, std::string path, int fd)
        : m_file(std::move(file)), m_path(std::move(path)), m_fd(fd)
    {}

    H5Handle m_file;
    std::string m_path;
    int m_fd = -1;
};

} // namespace ckpt
