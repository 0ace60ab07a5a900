#pragma once

#include <cstdint>
#include <string>

namespace ckpt {

enum class DTypeKind : std::uint8_t
{
    Float16,
    BFloat16,
    Float32,
    Float64,
    Int8,
    Int16,
    Int32,
    Int64,
    UInt8,
    UInt16,
    UInt32,
    UInt64,
    Bool,
    String,
    Other
};

// The element type of a dataset as the project names it ("float32", "bfloat16",
// "int64", "string", ...). `size` is the element size in bytes in the file.
struct DType
{
    DTypeKind kind = DTypeKind::Other;
    int size = 0;
    std::string name; // kindName(kind), or a description for Other ("compound", ...)

    bool numeric() const { return kind != DTypeKind::String && kind != DTypeKind::Other; }
    bool floating() const
    {
        return kind == DTypeKind::Float16 || kind == DTypeKind::BFloat16 ||
               kind == DTypeKind::Float32 || kind == DTypeKind::Float64;
    }
    friend bool operator==(const DType& a, const DType& b)
    {
        return a.kind == b.kind && a.size == b.size && a.name == b.name;
    }

    static std::string kindName(DTypeKind kind);
    static DType of(DTypeKind kind);
};

} // namespace ckpt
