#pragma once

#include "hdf5/DType.h"

#include <cstddef>
#include <cstdint>

namespace ckpt {

// Turns raw elements as DatasetReader delivers them (native byte order, no value
// conversion) into doubles. float16 and bfloat16 are decoded here because HDF5
// 1.10 has no native type for either.
class ElementDecoder
{
public:
    // Bytes per element of `kind` in memory; 0 for non-numeric kinds.
    static int memorySize(DTypeKind kind);
    static void toDouble(DTypeKind kind, const void* raw, std::size_t n, double* out);
    static float halfToFloat(std::uint16_t bits);
    static float bfloat16ToFloat(std::uint16_t bits);
};

} // namespace ckpt
