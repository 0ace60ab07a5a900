// Whole torch.save / Lightning .ckpt files: the zip listing (libzip), the
// archive's data.pkl through TorchPickle, every storage read in blocks
// (stored and deflated entries, strided views).
#include "FuzzTempFile.h"
#include "FuzzTensorSource.h"
#include "torch/TorchZipSource.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static FuzzTempFile file("epoch=1-step=10.ckpt");
    const std::string& path = file.write(data, size);
    (void)ckpt::TorchZipSource::sniff(
        std::string_view(reinterpret_cast<const char*>(data), size < 4096 ? size : 4096), path);
    auto source = ckpt::TorchZipSource::open(path);
    if (source)
        fuzzWholeTensorSource(**source);
    return 0;
}
