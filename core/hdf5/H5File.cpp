#include "hdf5/H5File.h"

#include "hdf5/H5Lock.h"
#include "hdf5/H5Probe.h"
#include "io/RegularFile.h"
#include "report/Format.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <filesystem>
#include <hdf5.h>
#include <set>
#include <system_error>

namespace ckpt {

namespace {

H5T_order_t nativeOrder()
{
    return std::endian::native == std::endian::little ? H5T_ORDER_LE : H5T_ORDER_BE;
}

std::vector<std::uint64_t> spaceDims(hid_t space)
{
    const int rank = H5Sget_simple_extent_ndims(space);
    if (rank <= 0)
        return {};
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    return {dims.begin(), dims.end()};
}

std::string filterName(H5Z_filter_t id, const char* reported)
{
    switch (id) {
    case H5Z_FILTER_DEFLATE:
        return "deflate";
    case H5Z_FILTER_SHUFFLE:
        return "shuffle";
    case H5Z_FILTER_FLETCHER32:
        return "fletcher32";
    case H5Z_FILTER_SZIP:
        return "szip";
    case H5Z_FILTER_NBIT:
        return "nbit";
    case H5Z_FILTER_SCALEOFFSET:
        return "scaleoffset";
    default:
        break;
    }
    if (reported && *reported)
        return reported;
    return "filter " + std::to_string(id);
}

std::string trimFixed(const char* data, std::size_t size, H5T_str_t pad)
{
    std::size_t n = 0;
    while (n < size && data[n] != '\0')
        ++n;
    std::string s(data, n);
    if (pad == H5T_STR_SPACEPAD) {
        while (!s.empty() && s.back() == ' ')
            s.pop_back();
    }
    return s;
}

struct NameList
{
    std::vector<std::string> names;
};

herr_t collectAttrName(hid_t, const char* name, const H5A_info_t*, void* data)
{
    static_cast<NameList*>(data)->names.emplace_back(name);
    return 0;
}

struct LinkEntry
{
    std::string name;
    haddr_t address = HADDR_UNDEF; // hard links only
};

// H5Ovisit2's callback: collects the datasets, and stops the walk (returning 1)
// at an object deeper than H5File::kMaxDepth ("a/b", relative to the root, is
// at depth 2).
herr_t collectDataset(hid_t, const char* name, const H5O_info_t* info, void* data)
{
    const std::string_view path(name);
    if (std::count(path.begin(), path.end(), '/') + 1 > H5File::kMaxDepth)
        return 1;
    if (info->type == H5O_TYPE_DATASET)
        static_cast<std::vector<LinkEntry>*>(data)->push_back(LinkEntry{name, info->addr});
    return 0;
}

// Reads one attribute; an attribute of an unsupported type keeps its name and
// type with no values rather than failing the whole object.
H5Attribute readAttribute(hid_t attr, const std::string& name)
{
    H5Attribute out;
    out.name = name;
    H5Handle type(H5Aget_type(attr));
    H5Handle space(H5Aget_space(attr));
    out.dtype = H5File::dtypeOf(type.get(), false);
    out.shape = spaceDims(space.get());
    const hssize_t count = H5Sget_simple_extent_npoints(space.get());
    if (count <= 0)
        return out;
    const auto n = static_cast<std::size_t>(count);
    // Attributes are small metadata, but a corrupt or hostile header can claim
    // billions of elements (found by fuzz_hdf5_inspect: a vlen string attribute
    // converting for minutes). Past these limits only the shape and type are shown.
    constexpr std::size_t kMaxElements = std::size_t{1} << 20;
    constexpr std::size_t kMaxBytes = std::size_t{64} << 20;
    const std::size_t elementBytes = std::max<std::size_t>(H5Tget_size(type.get()), 8);
    if (n > kMaxElements || n > kMaxBytes / elementBytes)
        return out;
    const H5T_class_t cls = H5Tget_class(type.get());
    if (cls == H5T_STRING) {
        if (H5Tis_variable_str(type.get()) > 0) {
            H5Handle mem(H5Tcopy(H5T_C_S1));
            H5Tset_size(mem.get(), H5T_VARIABLE);
            H5Tset_cset(mem.get(), H5Tget_cset(type.get()));
            std::vector<char*> ptrs(n, nullptr);
            const bool read = H5Aread(attr, mem.get(), ptrs.data()) >= 0;
            if (read) {
                for (char* p : ptrs)
                    out.strings.emplace_back(p ? p : "");
            }
            // Also after a failed read: the strings converted before the failure
            // are ours to free (the rest are still null).
            H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, ptrs.data());
        } else {
            const std::size_t size = H5Tget_size(type.get());
            std::vector<char> buf(size * n + 1, '\0');
            if (size > 0 && H5Aread(attr, type.get(), buf.data()) >= 0) {
                const H5T_str_t pad = H5Tget_strpad(type.get());
                for (std::size_t i = 0; i < n; ++i)
                    out.strings.push_back(trimFixed(buf.data() + i * size, size, pad));
            }
        }
    } else if (cls == H5T_INTEGER || cls == H5T_FLOAT) {
        out.numbers.assign(n, 0.0);
        if (H5Aread(attr, H5T_NATIVE_DOUBLE, out.numbers.data()) < 0)
            out.numbers.clear();
    } else if (cls == H5T_ENUM) {
        // An enum's raw values are integers of its base type: read them raw and let
        // HDF5 widen them in place (it converts enum to integer only this way).
        // The buffer holds n of the wider of the file's enum and long long.
        H5Handle base(H5Tget_super(type.get()));
        std::vector<unsigned char> raw(n * elementBytes, 0);
        if (H5Aread(attr, type.get(), raw.data()) >= 0 &&
            H5Tconvert(base.get(), H5T_NATIVE_LLONG, n, raw.data(), nullptr, H5P_DEFAULT) >= 0) {
            for (std::size_t i = 0; i < n; ++i) {
                long long v = 0;
                std::memcpy(&v, raw.data() + i * sizeof v, sizeof v);
                out.numbers.push_back(static_cast<double>(v));
            }
        }
    }
    return out;
}

} // namespace

Result<H5File> H5File::open(const std::string& path, H5Probe::Depth depth)
{
    std::error_code ec;
    if (!std::filesystem::exists(path, ec))
        return Error::at(path, "no such file");
    if (std::filesystem::is_directory(path, ec))
        return Error::at(path, "is a directory, not a model file");
    // HDF5's open would wait forever on a FIFO: only regular files go further.
    if (auto regular = RegularFile::open(path); !regular)
        return regular.error();
    // A file that crashes libhdf5 is read in a copy of this process first.
    if (auto checked = H5Probe::check(path, depth); !checked)
        return checked.error();
    H5Lock lock;
    H5Handle fapl(H5Pcreate(H5P_FILE_ACCESS));
    // A trainer may be writing this very file: never take HDF5's flock on it.
    H5Pset_file_locking(fapl.get(), false, true);
    H5Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()));
    if (!file) {
        const std::string detail = H5Handle::lastErrorDetail();
        std::string what = "cannot open as HDF5";
        if (detail.find("signature") != std::string::npos)
            what = "not an HDF5 file (no HDF5 signature)";
        else if (detail.find("truncated") != std::string::npos)
            what = "HDF5 file is truncated";
        return Error::at(path, detail.empty() ? what : what + " (" + detail + ")");
    }
    // Only the sec2 driver's handle is a plain descriptor (the default; checked
    // so that a change of driver can never hand us something else).
    int fd = -1;
    H5Handle openFapl(H5Fget_access_plist(file.get()));
    void* vfd = nullptr;
    if (openFapl && H5Pget_driver(openFapl.get()) == H5FD_SEC2 &&
        H5Fget_vfd_handle(file.get(), H5P_DEFAULT, &vfd) >= 0 && vfd)
        fd = *static_cast<int*>(vfd);
    return H5File(std::move(file), path, fd);
}

Error H5File::error(const std::string& object, const std::string& what) const
{
    const std::string detail = H5Handle::lastErrorDetail();
    std::string message = object.empty() ? what : object + ": " + what;
    if (!detail.empty())
        message += " (" + detail + ")";
    return Error::at(m_path, message);
}

bool H5File::hasStringAttr(std::int64_t object, const char* name, const std::string& value)
{
    H5Lock lock;
    if (H5Aexists(object, name) <= 0)
        return false;
    H5Handle attr(H5Aopen(object, name, H5P_DEFAULT));
    if (!attr)
        return false;
    const H5Attribute a = readAttribute(attr.get(), name);
    return a.strings.size() == 1 && a.strings.front() == value;
}

DType H5File::dtypeOf(std::int64_t type, bool bfloat16Attr)
{
    H5Lock lock;
    const H5T_class_t cls = H5Tget_class(type);
    const std::size_t size = H5Tget_size(type);
    if (bfloat16Attr && size == 2 && (cls == H5T_INTEGER || cls == H5T_OPAQUE || cls == H5T_FLOAT))
        return DType::of(DTypeKind::BFloat16);
    switch (cls) {
    case H5T_FLOAT:
        if (size == 2 && H5Tget_ebias(type) == 15)
            return DType::of(DTypeKind::Float16);
        if (size == 4 && H5Tget_precision(type) == 32)
            return DType::of(DTypeKind::Float32);
        if (size == 8 && H5Tget_precision(type) == 64)
            return DType::of(DTypeKind::Float64);
        return DType{DTypeKind::Other, static_cast<int>(size), "float" + std::to_string(size * 8)};
    case H5T_INTEGER: {
        const bool isSigned = H5Tget_sign(type) == H5T_SGN_2;
        switch (size) {
        case 1:
            return DType::of(isSigned ? DTypeKind::Int8 : DTypeKind::UInt8);
        case 2:
            return DType::of(isSigned ? DTypeKind::Int16 : DTypeKind::UInt16);
        case 4:
            return DType::of(isSigned ? DTypeKind::Int32 : DTypeKind::UInt32);
        case 8:
            return DType::of(isSigned ? DTypeKind::Int64 : DTypeKind::UInt64);
        default:
            return DType{DTypeKind::Other, static_cast<int>(size),
                         "int" + std::to_string(size * 8)};
        }
    }
    case H5T_ENUM: {
        // h5py writes numpy bool as an int8 enum {FALSE, TRUE}.
        if (size == 1 && H5Tget_nmembers(type) == 2)
            return DType::of(DTypeKind::Bool);
        return DType{DTypeKind::Other, static_cast<int>(size), "enum"};
    }
    case H5T_STRING:
        return DType{DTypeKind::String, static_cast<int>(size), "string"};
    case H5T_COMPOUND:
        return DType{DTypeKind::Other, static_cast<int>(size), "compound"};
    case H5T_OPAQUE:
        return DType{DTypeKind::Other, static_cast<int>(size), "opaque"};
    case H5T_ARRAY:
        return DType{DTypeKind::Other, static_cast<int>(size), "array"};
    case H5T_VLEN:
        return DType{DTypeKind::Other, static_cast<int>(size), "vlen"};
    case H5T_REFERENCE:
        return DType{DTypeKind::Other, static_cast<int>(size), "reference"};
    case H5T_BITFIELD:
        return DType{DTypeKind::Other, static_cast<int>(size), "bitfield"};
    default:
        break;
    }
    return DType{DTypeKind::Other, static_cast<int>(size), "other"};
}

H5Handle H5File::memoryType(std::int64_t fileType, DTypeKind kind)
{
    H5Lock lock;
    switch (kind) {
    case DTypeKind::Float32:
        return H5Handle(H5Tcopy(H5T_NATIVE_FLOAT));
    case DTypeKind::Float64:
        return H5Handle(H5Tcopy(H5T_NATIVE_DOUBLE));
    case DTypeKind::Bool: {
        H5Handle t(H5Tcopy(fileType));
        return t;
    }
    default:
        break;
    }
    // Integers, float16 and bfloat16 (whatever class holds it): the file's own
    // layout in native byte order, so HDF5 never converts the values.
    H5Handle t(H5Tcopy(fileType));
    if (H5Tget_size(fileType) > 1 && H5Tget_class(fileType) != H5T_OPAQUE)
        H5Tset_order(t.get(), nativeOrder());
    return t;
}

namespace {

// Where a dataset with this creation property list keeps its values when not in
// its own file (see H5File::storedElsewhere).
std::optional<std::string> elsewhereIn(hid_t dcpl)
{
    if (H5Pget_layout(dcpl) == H5D_VIRTUAL)
        return std::string("the source files of a virtual dataset");
    const int count = H5Pget_external_count(dcpl);
    if (count <= 0)
        return std::nullopt;
    char name[1024] = {};
    off_t offset = 0;
    hsize_t size = 0;
    if (H5Pget_external(dcpl, 0, sizeof name, name, &offset, &size) < 0)
        name[0] = '\0';
    std::string where = "external file ";
    where += name[0] ? name : "(unnamed)";
    if (count > 1)
        where += " and " + std::to_string(count - 1) + " more";
    return where;
}

} // namespace

std::optional<std::string> H5File::storedElsewhere(std::int64_t dataset)
{
    H5Lock lock;
    // Contiguous values at an address of this file: the common case, no copy
    // of the creation properties.
    if (H5Dget_offset(dataset) != HADDR_UNDEF)
        return std::nullopt;
    H5Handle dcpl(H5Dget_create_plist(dataset));
    if (!dcpl)
        return std::string("a place its creation properties do not say");
    return elsewhereIn(dcpl.get());
}

namespace {

std::uint64_t saturatingProduct(std::uint64_t a, std::uint64_t b)
{
    return b != 0 && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

} // namespace

std::optional<H5File::ChunkCache> H5File::filteredChunks(std::int64_t dataset)
{
    H5Lock lock;
    H5Handle dcpl(H5Dget_create_plist(dataset));
    if (!dcpl || H5Pget_layout(dcpl.get()) != H5D_CHUNKED || H5Pget_nfilters(dcpl.get()) <= 0)
        return std::nullopt;
    H5Handle type(H5Dget_type(dataset));
    H5Handle space(H5Dget_space(dataset));
    const int rank = H5Pget_chunk(dcpl.get(), 0, nullptr);
    if (!type || !space || rank <= 0 || rank != H5Sget_simple_extent_ndims(space.get()))
        return std::nullopt;
    std::vector<hsize_t> chunk(static_cast<std::size_t>(rank));
    std::vector<hsize_t> shape(static_cast<std::size_t>(rank));
    if (H5Pget_chunk(dcpl.get(), rank, chunk.data()) != rank ||
        H5Sget_simple_extent_dims(space.get(), shape.data(), nullptr) != rank)
        return std::nullopt;
    ChunkCache cache;
    cache.chunkBytes = H5Tget_size(type.get());
    std::uint64_t across = 1;
    for (std::size_t d = 0; d < chunk.size(); ++d) {
        cache.chunkBytes = saturatingProduct(cache.chunkBytes, chunk[d]);
        if (d > 0 && chunk[d] > 0)
            across = saturatingProduct(across, (shape[d] + chunk[d] - 1) / chunk[d]);
    }
    cache.cacheBytes =
        std::max(cache.chunkBytes,
                 std::min(saturatingProduct(cache.chunkBytes, across), kMaxFilteredChunkBytes));
    return cache;
}

std::string H5File::unreadReason(std::int64_t dataset)
{
    H5Lock lock;
    if (H5Dget_offset(dataset) != HADDR_UNDEF)
        return {}; // contiguous values at an address of this file
    if (auto where = storedElsewhere(dataset))
        return "its values are kept outside this file, in " + *where;
    if (const auto chunks = filteredChunks(dataset);
        chunks && chunks->chunkBytes > kMaxFilteredChunkBytes)
        return "its compressed chunks decode to " +
               Format::bytes(static_cast<double>(chunks->chunkBytes)) + " each, over the " +
               Format::bytes(static_cast<double>(kMaxFilteredChunkBytes)) + " read here";
    H5Handle type(H5Dget_type(dataset));
    H5Handle space(H5Dget_space(dataset));
    const hssize_t points = space ? H5Sget_simple_extent_npoints(space.get()) : -1;
    if (!type || points < 0)
        return {};
    const std::uint64_t values =
        saturatingProduct(static_cast<std::uint64_t>(points), H5Tget_size(type.get()));
    if (values > kMaxUnstoredBytes) {
        const std::uint64_t stored = H5Dget_storage_size(dataset);
        if (values / std::max<std::uint64_t>(stored, 1) > kMaxUnstoredRatio)
            return "it holds " + Format::bytes(static_cast<double>(values)) +
                   " of values, of which the file stores " +
                   Format::bytes(static_cast<double>(stored)) +
                   " (HDF5 would make up the rest from its fill value)";
    }
    return {};
}

std::string H5File::tooDeep()
{
    return "objects nested deeper than " + std::to_string(kMaxDepth) + " levels; not read";
}

std::string H5File::unreadError(const std::string& datasetPath, const std::string& reason)
{
    return "dataset " + datasetPath + ": " + reason + "; not read";
}

Result<H5DatasetInfo> H5File::datasetInfo(std::int64_t dataset, const std::string& objectPath,
                                          bool light) const
{
    H5Lock lock;
    H5DatasetInfo info;
    H5Handle type(H5Dget_type(dataset));
    H5Handle space(H5Dget_space(dataset));
    if (!type || !space)
        return error("dataset " + objectPath, "cannot read its header");
    const bool bf16 = H5Tget_size(type.get()) == 2 && hasStringAttr(dataset, "dtype", "bfloat16");
    info.dtype = dtypeOf(type.get(), bf16);
    info.shape = spaceDims(space.get());
    const hssize_t points = H5Sget_simple_extent_npoints(space.get());
    info.elements = points > 0 ? static_cast<std::uint64_t>(points) : 0;
    info.bytes = info.elements * H5Tget_size(type.get());
    if (!light)
        info.storageBytes = H5Dget_storage_size(dataset);
    // The creation property list (layout, chunks, filters) is a copy HDF5 makes
    // per call; a light listing skips it for tensors read in one block anyway,
    // when they are stored in this file (an address in it: contiguous, not external).
    if (light && info.bytes <= kLightLayoutBytes && H5Dget_offset(dataset) != HADDR_UNDEF)
        return info;
    H5Handle dcpl(H5Dget_create_plist(dataset));
    if (!dcpl)
        return error("dataset " + objectPath, "cannot read its creation properties");
    info.unread = unreadReason(dataset);
    info.filtered = H5Pget_nfilters(dcpl.get()) > 0;
    switch (H5Pget_layout(dcpl.get())) {
    case H5D_CONTIGUOUS:
        info.layout = "contiguous";
        break;
    case H5D_CHUNKED: {
        info.layout = "chunked";
        const int rank = H5Pget_chunk(dcpl.get(), 0, nullptr);
        if (rank > 0) {
            std::vector<hsize_t> chunk(static_cast<std::size_t>(rank));
            H5Pget_chunk(dcpl.get(), rank, chunk.data());
            info.chunk.assign(chunk.begin(), chunk.end());
        }
        break;
    }
    case H5D_COMPACT:
        info.layout = "compact";
        break;
    case H5D_VIRTUAL:
        info.layout = "virtual";
        break;
    default:
        info.layout = "unknown";
        break;
    }
    const int nfilters = light ? 0 : H5Pget_nfilters(dcpl.get());
    for (int i = 0; i < nfilters; ++i) {
        unsigned flags = 0;
        std::size_t nelmts = 0;
        char name[128] = {};
        const H5Z_filter_t id = H5Pget_filter2(dcpl.get(), static_cast<unsigned>(i), &flags,
                                               &nelmts, nullptr, sizeof name, name, nullptr);
        info.filters.push_back(filterName(id, name));
    }
    return info;
}

Result<std::vector<H5Attribute>> H5File::attributes(std::int64_t object,
                                                    const std::string& objectPath) const
{
    H5Lock lock;
    NameList names;
    if (H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, nullptr, collectAttrName, &names) < 0)
        return error(objectPath, "cannot list attributes");
    std::vector<H5Attribute> out;
    out.reserve(names.names.size());
    for (const std::string& name : names.names) {
        H5Handle attr(H5Aopen(object, name.c_str(), H5P_DEFAULT));
        if (!attr)
            return error(objectPath, "attribute " + name + ": cannot open");
        out.push_back(readAttribute(attr.get(), name));
    }
    return out;
}

Result<std::vector<H5File::DatasetLink>> H5File::datasetLinks() const
{
    H5Lock lock;
    // H5Ovisit walks inside the library without creating an identifier per group,
    // and the address it reports opens the dataset without a path traversal:
    // for files of thousands of small tensors that is what the listing costs.
    std::vector<LinkEntry> found;
    const herr_t walked =
        H5Ovisit2(id(), H5_INDEX_NAME, H5_ITER_INC, collectDataset, &found, H5O_INFO_BASIC);
    if (walked < 0)
        return error("/", "cannot walk the file (corrupted?)");
    if (walked > 0)
        return Error::at(m_path, tooDeep());
    std::vector<DatasetLink> out;
    out.reserve(found.size());
    for (LinkEntry& entry : found) {
        std::string objectPath;
        objectPath.reserve(entry.name.size() + 1);
        objectPath += '/';
        objectPath += entry.name;
        out.push_back(DatasetLink{std::move(objectPath), entry.address});
    }
    return out;
}

Result<H5Handle> H5File::openDataset(const DatasetLink& link) const
{
    H5Lock lock;
    H5Handle dataset(link.address == HADDR_UNDEF ? -1 : H5Oopen_by_addr(id(), link.address));
    if (!dataset)
        dataset.reset(H5Dopen2(id(), link.path.c_str(), H5P_DEFAULT));
    if (!dataset)
        return error("dataset " + link.path, "cannot open");
    return dataset;
}

Result<std::vector<H5File::DatasetEntry>> H5File::datasets(bool light) const
{
    H5Lock lock;
    auto links = datasetLinks();
    if (!links)
        return links.error();
    std::vector<DatasetEntry> out;
    out.reserve(links->size());
    for (DatasetLink& link : links.value()) {
        auto dataset = openDataset(link);
        if (!dataset)
            return dataset.error();
        auto info = datasetInfo(dataset->get(), link.path, light);
        if (!info)
            return info.error();
        // Not kept for filtered chunks: the reader opens those itself, with a
        // chunk cache, which HDF5 takes only at a dataset's first open.
        std::shared_ptr<H5Handle> handle;
        if (light && out.size() < kKeepOpen && !info->filtered)
            handle = std::make_shared<H5Handle>(std::move(dataset.value()));
        out.push_back(
            DatasetEntry{std::move(link.path), std::move(info.value()), std::move(handle)});
    }
    return out;
}

} // namespace ckpt
