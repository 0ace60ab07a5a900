#pragma once

#include "common/Result.h"
#include "hdf5/BlockPlan.h"
#include "hdf5/H5File.h"

#include <string>

namespace ckpt {

// One numeric dataset open for reading block by block (see BlockPlan). Elements
// arrive raw in native byte order; ElementDecoder turns them into doubles
// outside the H5Lock.
class DatasetReader
{
public:
    // `open` (optional) is the dataset already open; it is shared, not taken.
    static Result<DatasetReader> open(const H5File& file, const std::string& objectPath,
                                      const H5DatasetInfo& info, const H5Handle* open = nullptr);

    DTypeKind kind() const { return m_kind; }
    int elementSize() const { return m_elementSize; }
    const std::string& objectPath() const { return m_path; }

    // Reads `block` into `out` (block.elements * elementSize() bytes).
    Status read(const BlockPlan::Block& block, void* out) const;

    // True when blocks are read with pread from the file's own descriptor rather
    // than H5Dread: the dataset is contiguous, allocated, in this file (not an
    // external one) and stored exactly as it is read (same type, byte order and
    // size), so the bytes on disk are the bytes H5Dread would deliver.
    bool readsRaw() const { return m_rawOffset >= 0; }

private:
    DatasetReader() = default;

    const H5File* m_file = nullptr;
    std::string m_path;
    H5Handle m_dataset;
    H5Handle m_memType;            // owned memory type, when one is needed
    std::int64_t m_memTypeId = -1; // m_memType or a predefined native type
    mutable H5Handle m_fileSpace;  // fetched on the first partial read
    std::int64_t m_rawOffset = -1; // file offset of the data (readsRaw())
    std::uint64_t m_rawBytes = 0;  // its size
    DTypeKind m_kind = DTypeKind::Other;
    int m_elementSize = 0;
};

} // namespace ckpt
