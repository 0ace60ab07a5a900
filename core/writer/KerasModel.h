#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ckpt {

// A Keras Dense layer as stored in a Keras 2 HDF5 file: kernel is
// [inputs][units] row-major (Keras' layout), bias is [units].
struct KerasDense
{
    std::string name;
    int inputs = 0;
    int units = 0;
    std::string activation = "linear";
    std::vector<float> kernel;
    std::vector<float> bias;
};

// One float32 optimizer slot (Adam moments...) under optimizer_weights.
struct KerasTensor
{
    std::string name; // "Adam/dense/kernel/m:0"
    std::vector<std::uint64_t> dims;
    std::vector<float> values;
};

// What the writer puts into (and the reader gets back from) a Keras 2 file:
// a Sequential of Dense layers plus the optimizer state.
struct KerasModel
{
    std::string name = "sequential";
    std::vector<KerasDense> layers;
    std::string loss = "categorical_crossentropy";
    std::vector<std::string> metrics = {"accuracy"};
    // {"class_name": "Adam", "config": {...}} as Keras' optimizer get_config().
    nlohmann::ordered_json optimizerConfig = nlohmann::ordered_json::object();
    std::int64_t optimizerIterations = 0; // stored as <optimizer>/iter:0 (int64)
    std::vector<KerasTensor> optimizerWeights;

    // Attributes as read back (the reader fills these; the writer ignores them).
    std::string kerasVersion;
    std::string backend;
};

} // namespace ckpt
