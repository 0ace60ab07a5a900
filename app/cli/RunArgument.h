#pragma once

#include "ScanMain.h"
#include "common/Result.h"
#include "model/Run.h"

#include <QString>

namespace ckpt::cli {

// Resolves a RUN argument: the run's root (also one naming a run that shares its
// folder, <folder>/<prefix>), or any folder that holds exactly one run. The error lists the runs
// found when there are several.
Result<Run> loadRunArgument(const QString& argument);

// The root of the run a RUN argument names, as loadRunArgument() finds it, but
// without loading the run when the argument is a run's root itself.
Result<std::string> runRootArgument(const QString& argument);

} // namespace ckpt::cli
