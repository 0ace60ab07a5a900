#pragma once

#include "common/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {

struct ZipEntry
{
    std::string name;
    std::uint64_t size = 0; // uncompressed
    std::uint64_t compressedSize = 0;
};

// What a model file is, decided from its bytes, never from its name.
struct ModelSniff
{
    enum class Format
    {
        Hdf5,
        Zip,
        Unknown
    };
    enum class ZipKind
    {
        None,
        TorchSave,
        Keras3,
        Other
    };

    std::string path;
    Format format = Format::Unknown;
    std::uint64_t fileBytes = 0;
    std::uint64_t hdf5Offset = 0; // where the HDF5 signature is (user block size)
    ZipKind zipKind = ZipKind::None;
    std::string torchRoot; // torch.save: the archive's top folder ("archive", ...)
    std::vector<ZipEntry> entries;
    std::string hint; // for Unknown: "empty file", "text", ...
};

// Sniffs model files by content: the HDF5 signature (at 0, 512, 1024, 2048, ...
// for files with a user block) or a zip local header; zips are listed with
// libzip and classified as torch.save or Keras 3 `.keras` archives.
class ModelSniffer
{
public:
    static Result<ModelSniff> sniff(const std::string& path);
    static std::string formatName(ModelSniff::Format format);
    static std::string zipKindName(ModelSniff::ZipKind kind);
    // Classifies a list of archive entry names.
    static ModelSniff::ZipKind classify(const std::vector<ZipEntry>& entries,
                                        std::string* torchRoot = nullptr);
};

} // namespace ckpt
