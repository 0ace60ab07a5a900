// Lightning hparams.yaml files (the flat YAML subset save_hyperparameters
// writes), read from disk, every key's line looked up.
#include "FuzzTempFile.h"
#include "lightning/LightningHparams.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static FuzzTempFile file("hparams.yaml");
    const std::string& path = file.write(data, size);
    auto parsed = ckpt::LightningHparams::read(path);
    if (parsed) {
        for (const auto& [key, line] : parsed->lines)
            (void)parsed->lineOf(key);
    }
    return 0;
}
