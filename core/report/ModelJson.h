#pragma once

#include "hdf5/H5Inspector.h"
#include "hdf5/TensorDiff.h"
#include "hdf5/TensorStats.h"
#include "modelfile/ModelSniffer.h"
#include "tensor/TensorSourceStats.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace ckpt {

// JSON for `ckpt inspect` and `ckpt diff --json`: the one place these results
// are serialised. Non-finite numbers are written as null.
class ModelJson
{
public:
    // {"file", "format", "bytes", "zip": {...}?, "groups", "datasets", "dataset_bytes",
    //  "keras": {...}?, "tree": node, "stats": [ {"path", "shape", "dtype", "min", ...} ]?}
    static nlohmann::ordered_json inspect(const ModelSniff& sniff, const H5Report* report,
                                          const std::vector<TensorStats::Entry>* stats);
    // A non-HDF5 model file read through its TensorSource: {"file", "format" (torch,
    //  mindspore, ...), "bytes", "attributes": {...}, "problems": [...], "tensors":
    //  [ {"name", "shape", "dtype", "elements", "bytes", "note"?, "optimizer_state"?,
    //  "min", ... when stats were computed} ]}
    static nlohmann::ordered_json inspect(const TensorSource& source, std::uint64_t fileBytes,
                                          const std::vector<TensorSourceStats::Entry>* stats);
    // {"file_a", "file_b", "tensors": [...], "layers": [...]}
    static nlohmann::ordered_json diff(const ModelDiff& diff);

    static nlohmann::ordered_json node(const H5Node& node);
    static nlohmann::ordered_json attribute(const H5Attribute& attribute);
    static nlohmann::ordered_json datasetInfo(const H5DatasetInfo& info);
    static nlohmann::ordered_json keras(const KerasSummary& keras);
    static nlohmann::ordered_json stats(const ValueStats& stats);
    static nlohmann::ordered_json tensor(const TensorDiffEntry& entry);
    static nlohmann::ordered_json layer(const LayerDiff& layer);
    static nlohmann::ordered_json number(double value);
};

} // namespace ckpt
