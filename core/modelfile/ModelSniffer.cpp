#include "modelfile/ModelSniffer.h"

#include "io/AtomicFile.h"
#include "io/RegularFile.h"

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <set>
#include <sys/stat.h>
#include <system_error>
#include <unistd.h>
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
    // A FIFO or device named as a model must neither block nor stream forever.
    auto opened = RegularFile::open(path);
    if (!opened)
        return opened.error();
    const int fd = opened->get();
    struct stat st = {};
    if (::fstat(fd, &st) != 0)
        return Error{osError(path, errno), path};
    const auto size = static_cast<std::uint64_t>(st.st_size);
    out.fileBytes = size;
    const auto readAt = [fd](std::uint64_t offset, void* buf, std::size_t len) -> std::size_t {
        std::size_t got = 0;
        while (got < len) {
            const ssize_t n = ::pread(fd, static_cast<char*>(buf) + got, len - got,
                                      static_cast<off_t>(offset + got));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            got += static_cast<std::size_t>(n);
        }
        return got;
    };
    std::array<unsigned char, 8> head{};
    const std::size_t got = readAt(0, head.data(), head.size());
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
        std::array<unsigned char, 8> sig{};
        if (readAt(offset, sig.data(), sig.size()) == sig.size() && sig == kHdf5Signature) {
            out.format = ModelSniff::Format::Hdf5;
            out.hdf5Offset = offset;
            return out;
        }
    }
    std::string text(512, '\0');
    text.resize(readAt(0, text.data(), text.size()));
    out.hint = looksLikeText(text) ? "text" : "unrecognised binary";
    return out;
}

} // namespace ckpt
