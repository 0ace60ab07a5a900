// Whole HDF5 model files: H5Inspector::inspect opens the file, walks every
// object, reads attributes and the Keras structure. libhdf5 itself is not
// instrumented: coverage guides through our side of the calls.
#include "FuzzTempFile.h"
#include "hdf5/H5Inspector.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static FuzzTempFile file;
    const std::string& path = file.write(data, size);
    auto report = ckpt::H5Inspector::inspect(path);
    if (report)
        (void)ckpt::H5Inspector::layoutName(report->keras.layout);
    return 0;
}
