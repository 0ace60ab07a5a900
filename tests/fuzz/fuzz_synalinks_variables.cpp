// Whole Synalinks *.variables.json files: the SAX walk that turns nested
// JSON arrays into tensors, then every tensor read in blocks.
#include "FuzzTempFile.h"
#include "FuzzTensorSource.h"
#include "keras/SynalinksVariables.h"

#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static FuzzTempFile file("program_e03.variables.json");
    const std::string& path = file.write(data, size);
    (void)ckpt::SynalinksVariables::sniff(
        std::string_view(reinterpret_cast<const char*>(data), size < 4096 ? size : 4096), path);
    auto source = ckpt::SynalinksVariables::open(path);
    if (source)
        fuzzWholeTensorSource(**source);
    return 0;
}
