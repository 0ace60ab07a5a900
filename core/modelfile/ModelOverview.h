#pragma once

#include "common/Result.h"
#include "hdf5/H5Inspector.h"
#include "modelfile/ModelSniffer.h"
#include "tensor/TensorSource.h"

#include <memory>
#include <optional>
#include <string>

namespace ckpt {

// What a model inspector shows first: the sniffed format and, when the weights
// are HDF5 (directly or inside a Keras 3 archive), the object tree and the
// Keras summary. Torch, MindSpore, Caffe2 and Synalinks files are opened
// through their TensorSource (tensor list, values on demand); a zip no reader
// knows keeps only its listing.
struct ModelOverview
{
    ModelSniff sniff;
    std::string hdf5Path; // the file the tree was read from; empty when none
    std::optional<H5Report> report;
    std::string note; // why there is no tree (unknown archive, ...), for display
    // The file's reader when it is not HDF5; read from one thread at a time.
    std::shared_ptr<const TensorSource> source;

    // Loads `model`; a Keras 3 archive's model.weights.h5 is extracted into
    // `scratchDir` under `tag`. Metadata only: no tensor values are read.
    static Result<ModelOverview> load(const std::string& model, const std::string& scratchDir,
                                      const std::string& tag = "model.weights.h5");
    // The HDF5 file to read for `model`: itself, or its Keras 3 weights
    // extracted into `scratchDir` under `tag`.
    static Result<std::string> hdf5For(const ModelSniff& sniff, const std::string& scratchDir,
                                       const std::string& tag);
};

} // namespace ckpt
