#pragma once

#include "hdf5/DType.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// One attribute, values decoded: strings (fixed or variable length, scalar or
// array) into `strings`, numbers into `numbers` (integers exactly up to 2^53).
struct H5Attribute
{
    std::string name;
    DType dtype;
    std::vector<std::uint64_t> shape; // empty for a scalar
    std::vector<std::string> strings;
    std::vector<double> numbers;
    bool isString() const { return dtype.kind == DTypeKind::String; }
};

struct H5DatasetInfo
{
    std::vector<std::uint64_t> shape;
    DType dtype;
    std::uint64_t elements = 0;
    std::uint64_t bytes = 0;        // elements * element size: the logical size
    std::uint64_t storageBytes = 0; // on disk (compressed size when filtered)
    std::string layout;             // "contiguous", "chunked", "compact", "virtual"
    // Why the values are never read, or empty ("its values are kept outside this
    // file, in external file /data/x.bin"): see H5File::unreadReason.
    std::string unread;
    std::vector<std::uint64_t> chunk;
    std::vector<std::string> filters; // "deflate", "shuffle", "fletcher32", ...
    bool filtered = false;            // chunks pass through filters (set by light listings too)
};

// One object of the file tree. Groups have children (in name order); datasets have
// `dataset`. A hard link seen twice is listed once more with `linkTo` set and no
// children, so the tree stays finite.
struct H5Node
{
    enum class Kind
    {
        Group,
        Dataset,
        Other
    };
    std::string name; // link name; "/" for the root
    std::string path; // absolute: "/model_weights/dense/dense/kernel:0"
    Kind kind = Kind::Other;
    std::vector<H5Attribute> attributes;
    std::vector<H5Node> children;
    std::optional<H5DatasetInfo> dataset;
    std::string linkTo; // path of the first occurrence of this object, if a repeat

    const H5Attribute* attribute(const std::string& attrName) const;
    const H5Node* child(const std::string& childName) const;
    // Walks a relative or absolute path; nullptr when absent.
    const H5Node* find(const std::string& objectPath) const;
};

} // namespace ckpt
