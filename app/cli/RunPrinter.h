#pragma once

#include "model/Run.h"

#include <string>

namespace ckpt::cli {

// Human-readable text for a run: a header line, the epoch table, the problems.
class RunPrinter
{
public:
    static std::string describe(const Run& run, bool withEpochs);
};

} // namespace ckpt::cli
