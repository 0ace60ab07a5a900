#include "modelfile/ModelSniffer.h"

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <system_error>
#include <zip.h>

namespace ckpt {

namespace {

constexpr std::array<unsigned char, 8> kHdf5Signature = {0x89, 'H',  'D',  'F',
                                                         '\r', '\n', 0x1a, '\n'};

bool looksLikeText(const std::string& head)
{
    if (head.empty())
        return false;
    for (unsigned char c : head) {
        if (c == 0 || (c < 0x09) || (c > 0x0d && c < 0x20 && c != 0x1b))
            return false;
    }
    return true;
}

Result<std::vector<ZipEntry>> listZip(const std::string& path)
{
    int err = 0;
    zip_t* archive = zip_open(path.c_str(), ZIP_RDONLY, &err);
    if (!archive) {
        zip_error_t ze;
        zip_error_init_with_code(&ze, err);
        std::string what = std::string("zip archive unreadable: ") + zip_error_strerror(&ze);
        zip_error_fini(&ze);
        return Error::at(path, what);
    }
    std::vector<ZipEntry> entries;
    const zip_int64_t n = zip_get_num_entries(archive, 0);
    for (zip_int64_t i = 0; i < n; ++i) {
        zip_stat_t st;
        zip_stat_init(&st);
        if (zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &st) != 0)
            continue;
        ZipEntry e;
        if (st.valid & ZIP_STAT_NAME)
            e.name = st.name;
        if (st.valid & ZIP_STAT_SIZE)
            e.size = st.size;
        if (st.valid & ZIP_STAT_COMP_SIZE)
            e.compressedSize = st.comp_size;
        entries.push_back(std::move(e));
    }
    zip_discard(archive);
    return entries;
}

} // namespace

std::string ModelSniffer::formatName(ModelSniff::Format format)
{
    switch (format) {
    case ModelSniff::Format::Hdf5:
        return "hdf5";
    case ModelSniff::Format::Zip:
        return "zip";
    case ModelSniff::Format::Unknown:
        break;
    }
    return "unknown";
}

std::string ModelSniffer::zipKindName(ModelSniff::ZipKind kind)
{
    switch (kind) {
    case ModelSniff::ZipKind::None:
        return "none";
    case ModelSniff::ZipKind::TorchSave:
        return "torch";
    case ModelSniff::ZipKind::Keras3:
        return "keras3";
    case ModelSniff::ZipKind::Other:
        break;
    }
    return "other";
}

ModelSniff::ZipKind ModelSniffer::classify(const std::vector<ZipEntry>& entries,
                                           std::string* torchRoot)
{
    std::set<std::string> names;
    for (const ZipEntry& e : entries)
        names.insert(e.name);
    if (names.count("metadata.json") && names.count("config.json") &&
        names.count("model.weights.h5"))
        return ModelSniff::ZipKind::Keras3;
    // torch.save: every entry under one top folder holding data.pkl, and usually
    // version and data/<N> storages.
    for (const std::string& name : names) {
        const std::size_t slash = name.find('/');
        if (slash == std::string::npos || name.substr(slash + 1) != "data.pkl")
            continue;
        const std::string root = name.substr(0, slash);
        if (names.count(root + "/version") || names.count(root + "/.format_version") ||
            names.lower_bound(root + "/data/") != names.end()) {
            if (torchRoot)
                *torchRoot = root;
            return ModelSniff::ZipKind::TorchSave;
        }
    }
    return ModelSniff::ZipKind::Other;
}

Result<ModelSniff> ModelSniffer::sniff(const std::string& path)
{
    ModelSniff out;
    out.path = path;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        return Error::at(path, "is a directory, not a model file");
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        return Error::at(path, "cannot read: " + ec.message());
    out.fileBytes = size;
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Error::at(path, "cannot open for reading");
    std::array<unsigned char, 8> head{};
    in.read(reinterpret_cast<char*>(head.data()), head.size());
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) {
        out.hint = "empty file";
        return out;
    }
    if (got >= 4 && std::memcmp(head.data(), "PK\x03\x04", 4) == 0) {
        out.format = ModelSniff::Format::Zip;
        auto entries = listZip(path);
        if (!entries)
            return entries.error();
        out.entries = std::move(entries.value());
        out.zipKind = classify(out.entries, &out.torchRoot);
        return out;
    }
    // HDF5 looks for its signature at 0 and every power of two from 512 on.
    for (std::uint64_t offset = 0; offset + kHdf5Signature.size() <= size;
         offset = offset == 0 ? 512 : offset * 2) {
        in.clear();
        in.seekg(static_cast<std::streamoff>(offset));
        std::array<unsigned char, 8> sig{};
        in.read(reinterpret_cast<char*>(sig.data()), sig.size());
        if (static_cast<std::size_t>(in.gcount()) == sig.size() && sig == kHdf5Signature) {
            out.format = ModelSniff::Format::Hdf5;
            out.hdf5Offset = offset;
            return out;
        }
    }
    in.clear();
    in.seekg(0);
    std::string text(512, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    out.hint = looksLikeText(text) ? "text" : "unrecognised binary";
    return out;
}

} // namespace ckpt
