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
    static Result<DatasetReader> open(const H5File& file, const std::string& objectPath,
                                      const H5DatasetInfo& info);

    DTypeKind kind() const { return m_kind; }
    int elementSize() const { return m_elementSize; }
    const std::string& objectPath() const { return m_path; }

    // Reads `block` into `out` (block.elements * elementSize() bytes).
    Status read(const BlockPlan::Block& block, void* out) const;

private:
    DatasetReader() = default;

    const H5File* m_file = nullptr;
    std::string m_path;
    H5Handle m_dataset;
    H5Handle m_memType;
    H5Handle m_fileSpace;
    DTypeKind m_kind = DTypeKind::Other;
    int m_elementSize = 0;
};

} // namespace ckpt
