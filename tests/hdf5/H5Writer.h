#pragma once

#include <cstdint>
#include <filesystem>
#include <hdf5.h>
#include <string>
#include <vector>

namespace ckpt::test {

// Writes HDF5 fixtures with the HDF5 C library directly (independently of the
// code under test), the way h5py and Keras lay them out. Every call takes the
// H5Lock. Groups along a path are created on demand.
class H5Writer
{
public:
    explicit H5Writer(const std::filesystem::path& file, hsize_t userBlock = 0);
    ~H5Writer();
    H5Writer(const H5Writer&) = delete;
    H5Writer& operator=(const H5Writer&) = delete;

    hid_t id() const { return m_file; }
    void close();

    // Writes `data` (in `memType`) as a dataset of `fileType`; chunk empty =
    // contiguous; gzip >= 0 adds the deflate filter (chunk required).
    void dataset(const std::string& path, hid_t fileType, hid_t memType,
                 const std::vector<hsize_t>& dims, const void* data,
                 const std::vector<hsize_t>& chunk = {}, int gzip = -1, bool shuffle = false);
    void floats(const std::string& path, const std::vector<hsize_t>& dims,
                const std::vector<float>& data);
    // A float32 dataset whose values HDF5 keeps elsewhere: in `file` as raw
    // external storage, or (`virtualSource`) mapped from dataset /x of `file`.
    void floatsElsewhere(const std::string& path, hsize_t elements, const std::string& file,
                         bool virtualSource = false);

    // Replaces the stored bytes of the chunk at `origin` of a deflated dataset
    // with bytes that do not inflate: a corrupt chunk, as a bad disk or a torn
    // copy leaves one. The dataset's listing and its other chunks stay good.
    void corruptChunk(const std::string& path, const std::vector<hsize_t>& origin);

    // Attributes on the object at `path` ("/" for the root).
    void attrFixedString(const std::string& path, const std::string& name,
                         const std::string& value);
    void attrVarString(const std::string& path, const std::string& name, const std::string& value);
    // A 1-D array of fixed-length strings (numpy 'S' as h5py writes it), or of
    // variable-length strings.
    void attrStrings(const std::string& path, const std::string& name,
                     const std::vector<std::string>& values, bool variable = false);
    void attrDoubles(const std::string& path, const std::string& name,
                     const std::vector<double>& values, bool scalar = false);
    void attrInt64(const std::string& path, const std::string& name, std::int64_t value);
    void hardLink(const std::string& target, const std::string& link);

    // IEEE half in little endian, as h5py creates it.
    static hid_t halfType();

private:
    hid_t object(const std::string& path);
    void ensureParents(const std::string& path);

    hid_t m_file = -1;
};

} // namespace ckpt::test
