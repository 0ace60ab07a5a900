#include "hdf5/DatasetReader.h"

#include "hdf5/ElementDecoder.h"
#include "hdf5/H5Lock.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <hdf5.h>
#include <unistd.h>

namespace ckpt {

namespace {

// HDF5's default chunk cache per dataset (H5Pset_chunk_cache's rdcc_nbytes).
constexpr std::uint64_t kDefaultChunkCacheBytes = std::uint64_t{1} << 20;

} // namespace

Result<DatasetReader> DatasetReader::open(const H5File& file, const std::string& objectPath,
                                          const H5DatasetInfo& info, const H5Handle* open)
{
    if (!info.dtype.numeric())
        return Error::at(file.path(),
                         "dataset " + objectPath + ": not numeric (" + info.dtype.name + ")");
    H5Lock lock;
    DatasetReader reader;
    reader.m_file = &file;
    reader.m_path = objectPath;
    reader.m_kind = info.dtype.kind;
    reader.m_elementSize = ElementDecoder::memorySize(info.dtype.kind);
    if (open && open->valid() && H5Iinc_ref(open->get()) >= 0)
        reader.m_dataset.reset(open->get());
    else
        reader.m_dataset.reset(H5Dopen2(file.id(), objectPath.c_str(), H5P_DEFAULT));
    if (!reader.m_dataset)
        return file.error("dataset " + objectPath, "cannot open");
    // Contiguous values at an address of this file (the common case) are read
    // in place: no copy of the creation properties for them.
    const bool inPlace = H5Dget_offset(reader.m_dataset.get()) != HADDR_UNDEF;
    if (!inPlace) {
        if (std::string why = H5File::unreadReason(reader.m_dataset.get()); !why.empty())
            return Error::at(file.path(), H5File::unreadError(objectPath, why));
    }
    if (const auto chunks =
            inPlace ? std::nullopt : H5File::filteredChunks(reader.m_dataset.get())) {
        // Opened again with a chunk cache that decodes each chunk once. HDF5
        // takes a cache only at a dataset's first open, so this holds when no
        // other handle has it open (light listings keep none for these).
        if (chunks->cacheBytes > kDefaultChunkCacheBytes) {
            H5Handle access(H5Pcreate(H5P_DATASET_ACCESS));
            const std::uint64_t held =
                chunks->cacheBytes / std::max<std::uint64_t>(chunks->chunkBytes, 1);
            // HDF5 advises about 100 hash slots per chunk held.
            const auto slots =
                static_cast<std::size_t>(std::min<std::uint64_t>(held * 100 + 1, 1000003));
            if (!access ||
                H5Pset_chunk_cache(access.get(), slots,
                                   static_cast<std::size_t>(chunks->cacheBytes), 1.0) < 0)
                return file.error("dataset " + objectPath, "cannot set its chunk cache");
            reader.m_dataset = H5Handle();
            reader.m_dataset.reset(H5Dopen2(file.id(), objectPath.c_str(), access.get()));
            if (!reader.m_dataset)
                return file.error("dataset " + objectPath, "cannot open");
        }
    }
    // Same-size native types read without a value conversion (HDF5 only swaps
    // bytes if needed) and need no type of our own; the rest is read raw.
    switch (info.dtype.kind) {
    case DTypeKind::Float32:
        reader.m_memTypeId = H5T_NATIVE_FLOAT;
        break;
    case DTypeKind::Float64:
        reader.m_memTypeId = H5T_NATIVE_DOUBLE;
        break;
    case DTypeKind::Int8:
        reader.m_memTypeId = H5T_NATIVE_INT8;
        break;
    case DTypeKind::Int16:
        reader.m_memTypeId = H5T_NATIVE_INT16;
        break;
    case DTypeKind::Int32:
        reader.m_memTypeId = H5T_NATIVE_INT32;
        break;
    case DTypeKind::Int64:
        reader.m_memTypeId = H5T_NATIVE_INT64;
        break;
    case DTypeKind::UInt8:
        reader.m_memTypeId = H5T_NATIVE_UINT8;
        break;
    case DTypeKind::UInt16:
        reader.m_memTypeId = H5T_NATIVE_UINT16;
        break;
    case DTypeKind::UInt32:
        reader.m_memTypeId = H5T_NATIVE_UINT32;
        break;
    case DTypeKind::UInt64:
        reader.m_memTypeId = H5T_NATIVE_UINT64;
        break;
    default:
        break;
    }
    H5Handle fileType(H5Dget_type(reader.m_dataset.get()));
    if (!fileType)
        return file.error("dataset " + objectPath, "cannot read its type");
    if (reader.m_memTypeId < 0) {
        reader.m_memType = H5File::memoryType(fileType.get(), info.dtype.kind);
        reader.m_memTypeId = reader.m_memType.get();
        if (!reader.m_memType ||
            H5Tget_size(reader.m_memType.get()) != static_cast<std::size_t>(reader.m_elementSize))
            return file.error("dataset " + objectPath,
                              "unsupported element type " + info.dtype.name);
    }
    // H5Dget_offset is defined only for contiguous storage that is allocated and
    // not in external files; H5Tequal compares size, precision, byte order, sign
    // and the float layout, so no conversion is skipped. Anything else (chunked,
    // compressed, compact, big-endian, a 16-bit float read raw through a copy of
    // a big-endian type) goes through H5Dread.
    const haddr_t offset = H5Dget_offset(reader.m_dataset.get());
    const std::uint64_t bytes = info.elements * static_cast<std::uint64_t>(reader.m_elementSize);
    if (file.rawFd() >= 0 && offset != HADDR_UNDEF && bytes > 0 &&
        offset <= static_cast<haddr_t>(INT64_MAX) - bytes &&
        H5Dget_storage_size(reader.m_dataset.get()) >= bytes &&
        H5Tequal(fileType.get(), reader.m_memTypeId) > 0) {
        reader.m_rawOffset = static_cast<std::int64_t>(offset);
        reader.m_rawBytes = bytes;
    }
    return reader;
}

Status DatasetReader::read(const BlockPlan::Block& block, void* out) const
{
    if (m_rawOffset >= 0) {
        // Blocks are runs of consecutive flat indices (BlockPlan), and contiguous
        // storage is the flattened tensor in C order: one pread per block, no lock.
        const auto size = static_cast<std::uint64_t>(m_elementSize);
        std::uint64_t begin = block.offset * size;
        const std::uint64_t end = begin + block.elements * size;
        auto* to = static_cast<char*>(out);
        while (begin < end && end <= m_rawBytes) {
            const ssize_t n = ::pread(m_file->rawFd(), to, static_cast<std::size_t>(end - begin),
                                      static_cast<off_t>(m_rawOffset) + static_cast<off_t>(begin));
            if (n > 0) {
                begin += static_cast<std::uint64_t>(n);
                to += n;
            } else if (n == 0 || errno != EINTR) {
                const std::string why = n == 0 ? "file truncated" : std::strerror(errno);
                return Error::at(m_file->path(),
                                 "dataset " + m_path + ": read failed (" + why + ")");
            }
        }
        if (end > m_rawBytes)
            return Error::at(m_file->path(), "dataset " + m_path + ": read past its end");
        return {};
    }
    H5Lock lock;
    herr_t rc = 0;
    if (block.whole) {
        rc = H5Dread(m_dataset.get(), m_memTypeId, H5S_ALL, H5S_ALL, H5P_DEFAULT, out);
    } else {
        if (!m_fileSpace)
            m_fileSpace.reset(H5Dget_space(m_dataset.get()));
        const std::vector<hsize_t> start(block.start.begin(), block.start.end());
        const std::vector<hsize_t> count(block.count.begin(), block.count.end());
        H5Sselect_hyperslab(m_fileSpace.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                            nullptr);
        const hsize_t n = block.elements;
        H5Handle memSpace(H5Screate_simple(1, &n, nullptr));
        rc = H5Dread(m_dataset.get(), m_memTypeId, memSpace.get(), m_fileSpace.get(), H5P_DEFAULT,
                     out);
    }
    if (rc < 0) {
        const std::string detail = H5Handle::lastErrorDetail();
        std::string what = "dataset " + m_path + ": read failed (file truncated or corrupted?";
        what += detail.empty() ? ")" : " HDF5 says: " + detail + ")";
        return Error::at(m_file->path(), what);
    }
    return {};
}

} // namespace ckpt
