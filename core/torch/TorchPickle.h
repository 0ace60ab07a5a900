#pragma once

#include "common/Result.h"
#include "hdf5/DType.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ckpt {

// One tensor as torch.save's data.pkl describes it (torch._utils._rebuild_tensor_v2).
struct TorchTensorRef
{
    std::string name;        // nested dict/list keys joined with '/'
    std::string storageType; // "FloatStorage", ...
    DType dtype;
    std::string storageKey; // data/<key> in the archive
    std::uint64_t storageNumel = 0;
    std::uint64_t storageOffset = 0; // in elements
    std::vector<std::uint64_t> shape;
    std::vector<std::int64_t> stride;
    std::uint64_t elements = 0;
    // Storage elements the tensor spans from its offset (elements when contiguous).
    std::uint64_t span = 0;
    bool contiguous = true; // C order; a strided view (a transpose) is read element-wise
    std::string note;       // why it cannot be read, when it cannot
};

// Reads the pickle program torch.save writes (protocol 2, the persistent-id
// form of storages) WITHOUT executing anything: a small stack machine that
// knows the opcodes torch emits and models objects as plain values. Only the
// globals torch.save uses for tensors and dicts are understood
// (torch._utils._rebuild_tensor_v2 / _rebuild_parameter, collections.OrderedDict,
// torch.*Storage); any other callable yields an opaque value (its tensors, if
// any, are skipped with a note). An opcode it does not know is an error naming
// it and its offset. Memory stays proportional to data.pkl (itself capped by
// the caller), and nesting is flattened to a bounded depth.
class TorchPickle
{
public:
    struct Parsed
    {
        std::vector<TorchTensorRef> tensors;
        // Scalars at the top level (Lightning's epoch, global_step, version...).
        std::vector<std::pair<std::string, std::string>> scalars;
        std::vector<std::string> notes; // skipped entries, each naming the key
    };

    // `where` names the file in errors ("x.ckpt: archive/data.pkl").
    static Result<Parsed> parse(std::string_view data, const std::string& where);
    static DType dtypeOfStorage(std::string_view storageType);
};

} // namespace ckpt
