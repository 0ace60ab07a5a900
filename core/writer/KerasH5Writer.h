#pragma once

#include "common/Result.h"
#include "writer/KerasModel.h"

#include <filesystem>
#include <string>

namespace ckpt {

// Writes a model file in the Keras 2 HDF5 layout (what tf.keras 2.11
// model.save(..., save_format="h5") produces): root attributes keras_version,
// backend, model_config, training_config; model_weights/<layer>/<layer>/kernel:0
// and bias:0 with layer_names/weight_names attributes (split into name0,
// name1, ... above HDF5's 64 KiB header limit); optimizer_weights. Weights-only
// mode writes the model_weights content at the root, as save_weights() does.
// String attributes are typed as Keras 2.11 leaves them through h5py: the root
// keras_version/backend were Python str (variable-length UTF-8), the JSON
// configs and the name lists bytes (fixed-length, null-padded).
// The file is written under a temporary name and renamed into place. Every HDF5
// call runs under H5Lock.
class KerasH5Writer
{
public:
    static constexpr const char* kKerasVersion = "2.11.0";
    static constexpr const char* kBackend = "tensorflow";

    static Status write(const std::filesystem::path& path, const KerasModel& model,
                        bool weightsOnly = false);

    // The JSON texts stored in the root attributes (json.dumps form).
    static std::string modelConfigJson(const KerasModel& model);
    static std::string trainingConfigJson(const KerasModel& model);
};

} // namespace ckpt
