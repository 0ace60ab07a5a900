#pragma once

#include "model/Run.h"

#include <string>
#include <string_view>

namespace ckpt::cli {

// Human-readable text for a run: a header line, the epoch table, the problems.
class RunPrinter
{
public:
    // `liveness`: "live", "idle" or "interrupted" (Liveness), shown in the header.
    static std::string describe(const Run& run, bool withEpochs, std::string_view liveness = {});
};

} // namespace ckpt::cli
