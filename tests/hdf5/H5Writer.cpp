#include "H5Writer.h"

#include "hdf5/H5Lock.h"

#include <algorithm>
#include <stdexcept>

namespace ckpt::test {

H5Writer::H5Writer(const std::filesystem::path& file, hsize_t userBlock)
{
    H5Lock lock;
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    if (userBlock > 0)
        H5Pset_userblock(fcpl, userBlock);
    m_file = H5Fcreate(file.c_str(), H5F_ACC_TRUNC, fcpl, H5P_DEFAULT);
    H5Pclose(fcpl);
    if (m_file < 0)
        throw std::runtime_error("cannot create " + file.string());
}

H5Writer::~H5Writer()
{
    close();
}

void H5Writer::close()
{
    H5Lock lock;
    if (m_file >= 0)
        H5Fclose(m_file);
    m_file = -1;
}

hid_t H5Writer::halfType()
{
    H5Lock lock;
    hid_t t = H5Tcopy(H5T_IEEE_F32LE);
    H5Tset_fields(t, 15, 10, 5, 0, 10);
    H5Tset_size(t, 2);
    H5Tset_ebias(t, 15);
    return t;
}

void H5Writer::ensureParents(const std::string& path)
{
    std::size_t pos = 1;
    while ((pos = path.find('/', pos)) != std::string::npos) {
        const std::string group = path.substr(0, pos);
        if (H5Lexists(m_file, group.c_str(), H5P_DEFAULT) <= 0)
            H5Gclose(H5Gcreate2(m_file, group.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
        ++pos;
    }
}

hid_t H5Writer::object(const std::string& path)
{
    if (path != "/" && H5Lexists(m_file, path.c_str(), H5P_DEFAULT) <= 0) {
        ensureParents(path);
        H5Gclose(H5Gcreate2(m_file, path.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    }
    return H5Oopen(m_file, path.c_str(), H5P_DEFAULT);
}

void H5Writer::dataset(const std::string& path, hid_t fileType, hid_t memType,
                       const std::vector<hsize_t>& dims, const void* data,
                       const std::vector<hsize_t>& chunk, int gzip, bool shuffle)
{
    H5Lock lock;
    ensureParents(path);
    hid_t space = dims.empty()
                      ? H5Screate(H5S_SCALAR)
                      : H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (!chunk.empty()) {
        H5Pset_chunk(dcpl, static_cast<int>(chunk.size()), chunk.data());
        if (shuffle)
            H5Pset_shuffle(dcpl);
        if (gzip >= 0)
            H5Pset_deflate(dcpl, static_cast<unsigned>(gzip));
    }
    hid_t ds = H5Dcreate2(m_file, path.c_str(), fileType, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (ds < 0)
        throw std::runtime_error("cannot create dataset " + path);
    if (data)
        H5Dwrite(ds, memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
    H5Dclose(ds);
    H5Pclose(dcpl);
    H5Sclose(space);
}

void H5Writer::floats(const std::string& path, const std::vector<hsize_t>& dims,
                      const std::vector<float>& data)
{
    dataset(path, H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, dims, data.data());
}

void H5Writer::floatsElsewhere(const std::string& path, hsize_t elements, const std::string& file,
                               bool virtualSource)
{
    H5Lock lock;
    ensureParents(path);
    hid_t space = H5Screate_simple(1, &elements, nullptr);
    hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    if (virtualSource)
        H5Pset_virtual(dcpl, space, file.c_str(), "/x", space);
    else
        H5Pset_external(dcpl, file.c_str(), 0, elements * 4);
    hid_t ds =
        H5Dcreate2(m_file, path.c_str(), H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    if (ds < 0)
        throw std::runtime_error("cannot create dataset " + path);
    H5Dclose(ds);
    H5Pclose(dcpl);
    H5Sclose(space);
}

void H5Writer::corruptChunk(const std::string& path, const std::vector<hsize_t>& origin)
{
    H5Lock lock;
    hid_t ds = H5Dopen2(m_file, path.c_str(), H5P_DEFAULT);
    if (ds < 0)
        throw std::runtime_error("no dataset " + path);
    // Not a deflate stream: zlib refuses it at the first byte (an invalid block type).
    const std::string garbage(64, '\xff');
    const herr_t written =
        H5Dwrite_chunk(ds, H5P_DEFAULT, 0, origin.data(), garbage.size(), garbage.data());
    H5Dclose(ds);
    if (written < 0)
        throw std::runtime_error("cannot overwrite a chunk of " + path);
}

void H5Writer::attrFixedString(const std::string& path, const std::string& name,
                               const std::string& value)
{
    H5Lock lock;
    hid_t obj = object(path);
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, value.empty() ? 1 : value.size());
    H5Tset_strpad(type, H5T_STR_NULLPAD);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
    std::string buf = value.empty() ? std::string(1, '\0') : value;
    H5Awrite(attr, type, buf.data());
    H5Aclose(attr);
    H5Sclose(space);
    H5Tclose(type);
    H5Oclose(obj);
}

void H5Writer::attrVarString(const std::string& path, const std::string& name,
                             const std::string& value)
{
    H5Lock lock;
    hid_t obj = object(path);
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
    const char* p = value.c_str();
    H5Awrite(attr, type, &p);
    H5Aclose(attr);
    H5Sclose(space);
    H5Tclose(type);
    H5Oclose(obj);
}

void H5Writer::attrStrings(const std::string& path, const std::string& name,
                           const std::vector<std::string>& values, bool variable)
{
    H5Lock lock;
    hid_t obj = object(path);
    const hsize_t n = values.size();
    hid_t space = H5Screate_simple(1, &n, nullptr);
    hid_t type = H5Tcopy(H5T_C_S1);
    if (variable) {
        H5Tset_size(type, H5T_VARIABLE);
        std::vector<const char*> ptrs;
        for (const std::string& v : values)
            ptrs.push_back(v.c_str());
        hid_t attr = H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(attr, type, ptrs.data());
        H5Aclose(attr);
    } else {
        std::size_t width = 1;
        for (const std::string& v : values)
            width = std::max(width, v.size());
        H5Tset_size(type, width);
        H5Tset_strpad(type, H5T_STR_NULLPAD);
        std::string buf(width * values.size(), '\0');
        for (std::size_t i = 0; i < values.size(); ++i)
            buf.replace(i * width, values[i].size(), values[i]);
        hid_t attr = H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
        H5Awrite(attr, type, buf.data());
        H5Aclose(attr);
    }
    H5Tclose(type);
    H5Sclose(space);
    H5Oclose(obj);
}

void H5Writer::attrDoubles(const std::string& path, const std::string& name,
                           const std::vector<double>& values, bool scalar)
{
    H5Lock lock;
    hid_t obj = object(path);
    const hsize_t n = values.size();
    hid_t space = scalar ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &n, nullptr);
    hid_t attr = H5Acreate2(obj, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, H5T_NATIVE_DOUBLE, values.data());
    H5Aclose(attr);
    H5Sclose(space);
    H5Oclose(obj);
}

void H5Writer::attrInt64(const std::string& path, const std::string& name, std::int64_t value)
{
    H5Lock lock;
    hid_t obj = object(path);
    hid_t space = H5Screate(H5S_SCALAR);
    hid_t attr = H5Acreate2(obj, name.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(attr, H5T_NATIVE_INT64, &value);
    H5Aclose(attr);
    H5Sclose(space);
    H5Oclose(obj);
}

void H5Writer::hardLink(const std::string& target, const std::string& link)
{
    H5Lock lock;
    ensureParents(link);
    H5Lcreate_hard(m_file, target.c_str(), m_file, link.c_str(), H5P_DEFAULT, H5P_DEFAULT);
}

} // namespace ckpt::test
