#include "caffe2/Caffe2MiniDb.h"
#include "io/RegularFile.h"
#include "keras/SynalinksVariables.h"
#include "mindspore/MindSporeCheckpoint.h"
#include "tensor/TensorSource.h"
#include "torch/TorchZipSource.h"

#include <filesystem>

namespace ckpt {

const std::vector<TensorFormat>& TensorSources::formats()
{
    // Each format's folder adds its entry here (most specific sniff first).
    static const std::vector<TensorFormat> all = {
        {"torch", &TorchZipSource::sniff, &TorchZipSource::open},
        {"mindspore", &MindSporeCheckpoint::sniff, &MindSporeCheckpoint::open},
        SynalinksVariables::tensorFormat(),
        {"caffe2", &Caffe2MiniDb::sniff, &Caffe2MiniDb::open},
    };
    return all;
}

namespace {

Result<std::string> headOf(const std::string& path)
{
    return RegularFile::readHead(path, 4096);
}

const TensorFormat* formatFor(const std::string& path, const std::string& head)
{
    const std::string name = std::filesystem::path(path).filename().string();
    for (const TensorFormat& f : TensorSources::formats()) {
        if (f.sniff(head, name))
            return &f;
    }
    return nullptr;
}

} // namespace

Result<std::unique_ptr<TensorSource>> TensorSources::open(const std::string& path)
{
    auto head = headOf(path);
    if (!head)
        return head.error();
    const TensorFormat* f = formatFor(path, head.value());
    if (!f)
        return Error::at(path, "not a model file this version reads (HDF5, torch zip, "
                               "MindSpore or Caffe2 checkpoint, Synalinks variables)");
    return f->open(path);
}

bool TensorSources::recognises(const std::string& path)
{
    auto head = headOf(path);
    return head && formatFor(path, head.value()) != nullptr;
}

} // namespace ckpt
