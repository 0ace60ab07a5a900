// Model files sniffed by content: HDF5 signature search, zip listing (libzip)
// and the torch.save / Keras 3 classification.
#include "FuzzTempFile.h"
#include "modelfile/ModelSniffer.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static FuzzTempFile file;
    const std::string& path = file.write(data, size);
    auto sniff = ckpt::ModelSniffer::sniff(path);
    if (sniff) {
        (void)ckpt::ModelSniffer::formatName(sniff->format);
        (void)ckpt::ModelSniffer::zipKindName(sniff->zipKind);
    }
    return 0;
}
