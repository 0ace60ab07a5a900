#pragma once

#include "common/Progress.h"
#include "common/Result.h"

#include <filesystem>
#include <string>
#include <vector>

namespace ckpt {

// What a CANDLE restart from one epoch directory needs: a readable
// ckpt-info.json naming the same epoch, the model file, and its CRC-32 matching
// the recorded checksum ("__DISABLED__" or none is not checked).
class CandleRestartCheck
{
public:
    // The failures as messages naming the file; empty when a restart would
    // succeed. Error only for I/O trouble while computing the CRC and cancellation.
    static Result<std::vector<std::string>> check(const std::filesystem::path& dir, int epoch,
                                                  const Progress& progress);
};

} // namespace ckpt
