// Orbax step folders' _CHECKPOINT_METADATA (JSON with metrics and the commit
// time), read from <root>/<step>/ as a run scan does.
#include "FuzzTempFile.h"
#include "orbax/OrbaxStepReader.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static FuzzTempFile file("7/_CHECKPOINT_METADATA");
    file.write(data, size);
    (void)ckpt::OrbaxStepReader::read(file.dir(), "7", 7);
    return 0;
}
