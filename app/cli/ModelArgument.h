#pragma once

#include "common/Result.h"

#include <QString>
#include <QTemporaryDir>

#include <string>

namespace ckpt::cli {

// Resolves a MODEL argument: a model file, or an epoch directory (the file its
// ckpt-info.json names in model_file, else model.h5).
Result<std::string> resolveModelArgument(const QString& argument);

// The HDF5 file to read for `model`: itself, or for a Keras 3 `.keras` archive
// its model.weights.h5, extracted into `tmp` under the name `tag`.
Result<std::string> hdf5ForModel(const std::string& model, const QTemporaryDir& tmp,
                                 const std::string& tag);

// `RUN --epochs N M`: the model files of two epochs of one run.
Result<std::pair<std::string, std::string>> resolveRunEpochs(const QString& run, int first,
                                                             int second);

} // namespace ckpt::cli
