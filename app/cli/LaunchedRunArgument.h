#pragma once

#include "common/Result.h"

#include <QString>

#include <string>

namespace ckpt::cli {

// The root of a RUN argument for the launch commands: a folder holding a
// launch record (.ckpt-studio/launch/record.json) is taken as it is, even
// before its first epoch; otherwise the run found below the folder.
Result<std::string> launchedRunRoot(const QString& argument);

} // namespace ckpt::cli
