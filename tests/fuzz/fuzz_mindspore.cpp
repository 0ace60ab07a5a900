// Whole MindSpore .ckpt files: the protobuf listing (split parameters, scalars
// such as epoch_num), every tensor read in blocks, and the `crc_num` trailer
// found and checked against the protobuf part.
#include "FuzzTempFile.h"
#include "FuzzTensorSource.h"
#include "mindspore/MindSporeCheckpoint.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static FuzzTempFile file("lenet-2_1875.ckpt");
    const std::string& path = file.write(data, size);
    (void)ckpt::MindSporeCheckpoint::sniff(
        std::string_view(reinterpret_cast<const char*>(data), size < 4096 ? size : 4096), path);
    (void)ckpt::MindSporeCheckpoint::readTrailer(path);
    auto source = ckpt::MindSporeCheckpoint::open(path);
    if (source) {
        fuzzWholeTensorSource(**source);
        (void)static_cast<const ckpt::MindSporeCheckpoint&>(**source).verifyCrc();
    }
    return 0;
}
