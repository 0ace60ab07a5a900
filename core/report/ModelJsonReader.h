#pragma once

#include "common/Result.h"
#include "hdf5/TensorDiff.h"

#include <nlohmann/json.hpp>

namespace ckpt {

// The reverse of ModelJson::diff: the ModelDiff a far `ckpt diff --json`
// computed, for the same weights view a local diff fills. Null numbers read
// as NaN, "rel_change_inf" as +inf; what the JSON leaves out (a tensor's dot
// product, optimizer-state flags) stays at its default.
class ModelJsonReader
{
public:
    static Result<ModelDiff> diff(const nlohmann::ordered_json& document);
    static DType dtype(const std::string& name);
};

} // namespace ckpt
