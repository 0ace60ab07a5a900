#pragma once

#include "common/Result.h"
#include "hdf5/H5Tree.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ckpt {

struct KerasWeight
{
    std::string name; // as Keras names it: "dense/kernel:0" (Keras 2), "0" (Keras 3)
    std::string path; // absolute dataset path, empty when the dataset is missing
    std::vector<std::uint64_t> shape;
    DType dtype;
    std::uint64_t elements = 0;
    std::uint64_t bytes = 0;
};

struct KerasLayer
{
    std::string name;
    std::string className; // from model_config when present ("Dense", ...)
    std::vector<KerasWeight> weights;
    std::uint64_t params = 0;
};

// What a Keras file says about the model, in Keras's own order.
struct KerasSummary
{
    enum class Layout
    {
        None,
        Keras2Model,
        Keras2Weights,
        Keras3Weights
    };
    Layout layout = Layout::None;
    std::string kerasVersion;
    std::string backend;
    std::string modelClass;     // model_config.class_name ("Sequential", "Functional")
    std::string modelConfig;    // pretty-printed JSON (raw text if it does not parse)
    std::string trainingConfig; // idem; empty when absent
    std::string optimizerClass; // training_config.optimizer_config.class_name
    std::vector<KerasLayer> layers;
    std::vector<KerasWeight> optimizerWeights;
    std::uint64_t totalParams = 0;
    std::vector<std::string> notes; // inconsistencies found (missing datasets, ...)
};

struct H5Report
{
    std::string file;
    H5Node root;
    KerasSummary keras;
    std::uint64_t groups = 0;
    std::uint64_t datasets = 0;
    std::uint64_t datasetBytes = 0; // logical bytes of all datasets
};

// Reads the whole object tree of an HDF5 file (groups, datasets with shape,
// dtype, size, chunking and filters, every attribute) and recognises the Keras
// layouts. Metadata only: no dataset values are read (see TensorStats).
class H5Inspector
{
public:
    static Result<H5Report> inspect(const std::string& file);
    static KerasSummary kerasSummary(const H5Node& root);
    static std::string layoutName(KerasSummary::Layout layout);
    // A string list attribute, also in the split form Keras uses above 64 KiB:
    // name0, name1, ... concatenated. Empty when absent.
    static std::vector<std::string> stringList(const H5Node& node, const std::string& name);
};

} // namespace ckpt
