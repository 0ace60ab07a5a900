#include "hdf5/ElementDecoder.h"

#include <array>
#include <bit>
#include <cstring>
#include <memory>

namespace ckpt {

namespace {

float decodeHalf(std::uint16_t h)
{
    const std::uint32_t sign = (h & 0x8000u) << 16;
    const std::uint32_t exp = (h >> 10) & 0x1fu;
    const std::uint32_t mant = h & 0x3ffu;
    std::uint32_t bits = 0;
    if (exp == 0x1f) {
        bits = sign | 0x7f800000u | (mant << 13); // inf or NaN
    } else if (exp != 0) {
        bits = sign | ((exp + 112) << 23) | (mant << 13);
    } else if (mant != 0) {
        // Subnormal half: value = mant * 2^-24, exact in float.
        const float v = static_cast<float>(mant) * 5.9604644775390625e-8f;
        return sign ? -v : v;
    } else {
        bits = sign;
    }
    return std::bit_cast<float>(bits);
}

const float* halfTable()
{
    static const std::unique_ptr<float[]> table = [] {
        auto t = std::make_unique<float[]>(65536);
        for (std::uint32_t i = 0; i < 65536; ++i)
            t[i] = decodeHalf(static_cast<std::uint16_t>(i));
        return t;
    }();
    return table.get();
}

template <typename T> void castAll(const void* raw, std::size_t n, double* out)
{
    const auto* p = static_cast<const unsigned char*>(raw);
    for (std::size_t i = 0; i < n; ++i) {
        T v;
        std::memcpy(&v, p + i * sizeof(T), sizeof(T));
        out[i] = static_cast<double>(v);
    }
}

} // namespace

int ElementDecoder::memorySize(DTypeKind kind)
{
    return DType::of(kind).size;
}

float ElementDecoder::halfToFloat(std::uint16_t bits)
{
    return halfTable()[bits];
}

float ElementDecoder::bfloat16ToFloat(std::uint16_t bits)
{
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits) << 16);
}

void ElementDecoder::toDouble(DTypeKind kind, const void* raw, std::size_t n, double* out)
{
    switch (kind) {
    case DTypeKind::Float16: {
        const float* table = halfTable();
        const auto* p = static_cast<const unsigned char*>(raw);
        for (std::size_t i = 0; i < n; ++i) {
            std::uint16_t h;
            std::memcpy(&h, p + 2 * i, 2);
            out[i] = table[h];
        }
        return;
    }
    case DTypeKind::BFloat16: {
        const auto* p = static_cast<const unsigned char*>(raw);
        for (std::size_t i = 0; i < n; ++i) {
            std::uint16_t h;
            std::memcpy(&h, p + 2 * i, 2);
            out[i] = bfloat16ToFloat(h);
        }
        return;
    }
    case DTypeKind::Float32:
        return castAll<float>(raw, n, out);
    case DTypeKind::Float64:
        std::memcpy(out, raw, n * sizeof(double));
        return;
    case DTypeKind::Int8:
        return castAll<std::int8_t>(raw, n, out);
    case DTypeKind::Int16:
        return castAll<std::int16_t>(raw, n, out);
    case DTypeKind::Int32:
        return castAll<std::int32_t>(raw, n, out);
    case DTypeKind::Int64:
        return castAll<std::int64_t>(raw, n, out);
    case DTypeKind::UInt8:
    case DTypeKind::Bool:
        return castAll<std::uint8_t>(raw, n, out);
    case DTypeKind::UInt16:
        return castAll<std::uint16_t>(raw, n, out);
    case DTypeKind::UInt32:
        return castAll<std::uint32_t>(raw, n, out);
    case DTypeKind::UInt64:
        return castAll<std::uint64_t>(raw, n, out);
    case DTypeKind::String:
    case DTypeKind::Other:
        break;
    }
    for (std::size_t i = 0; i < n; ++i)
        out[i] = 0.0;
}

} // namespace ckpt
