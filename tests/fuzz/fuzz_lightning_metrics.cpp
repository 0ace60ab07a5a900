// Lightning CSVLogger metrics.csv files, read from disk as a run's history is:
// by epoch and by step.
#include "FuzzTempFile.h"
#include "lightning/LightningMetricsCsv.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static FuzzTempFile file("metrics.csv");
    const std::string& path = file.write(data, size);
    (void)ckpt::LightningMetricsCsv::read(path, false);
    (void)ckpt::LightningMetricsCsv::read(path, true);
    return 0;
}
