#include "hdf5/DType.h"

namespace ckpt {

std::string DType::kindName(DTypeKind kind)
{
    switch (kind) {
    case DTypeKind::Float16:
        return "float16";
    case DTypeKind::BFloat16:
        return "bfloat16";
    case DTypeKind::Float32:
        return "float32";
    case DTypeKind::Float64:
        return "float64";
    case DTypeKind::Int8:
        return "int8";
    case DTypeKind::Int16:
        return "int16";
    case DTypeKind::Int32:
        return "int32";
    case DTypeKind::Int64:
        return "int64";
    case DTypeKind::UInt8:
        return "uint8";
    case DTypeKind::UInt16:
        return "uint16";
    case DTypeKind::UInt32:
        return "uint32";
    case DTypeKind::UInt64:
        return "uint64";
    case DTypeKind::Bool:
        return "bool";
    case DTypeKind::String:
        return "string";
    case DTypeKind::Other:
        break;
    }
    return "other";
}

DType DType::of(DTypeKind kind)
{
    int size = 0;
    switch (kind) {
    case DTypeKind::Int8:
    case DTypeKind::UInt8:
    case DTypeKind::Bool:
        size = 1;
        break;
    case DTypeKind::Float16:
    case DTypeKind::BFloat16:
    case DTypeKind::Int16:
    case DTypeKind::UInt16:
        size = 2;
        break;
    case DTypeKind::Float32:
    case DTypeKind::Int32:
    case DTypeKind::UInt32:
        size = 4;
        break;
    case DTypeKind::Float64:
    case DTypeKind::Int64:
    case DTypeKind::UInt64:
        size = 8;
        break;
    case DTypeKind::String:
    case DTypeKind::Other:
        break;
    }
    return DType{kind, size, kindName(kind)};
}

} // namespace ckpt
