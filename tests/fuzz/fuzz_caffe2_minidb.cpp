// Whole Caffe2 minidb files: [key_len][value_len][key][BlobProto] records,
// tensors saved in chunks, packed varint and raw/byte_data encodings, every
// tensor read in blocks.
#include "FuzzTempFile.h"
#include "FuzzTensorSource.h"
#include "caffe2/Caffe2MiniDb.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static FuzzTempFile file("trainer_0.3");
    const std::string& path = file.write(data, size);
    (void)ckpt::Caffe2MiniDb::sniff(
        std::string_view(reinterpret_cast<const char*>(data), size < 4096 ? size : 4096), path);
    auto source = ckpt::Caffe2MiniDb::open(path);
    if (source)
        fuzzWholeTensorSource(**source);
    return 0;
}
