#pragma once

#include "checksum/VerifyStore.h"
#include "model/Run.h"

#include <filesystem>
#include <memory>
#include <string>

namespace ckpt::test {

// The window's verify cache about to be written over a fault: a CANDLE run of
// three verified epochs under `runs`, `cache` saved with epoch 1's verdict
// only (`saved` is that file's text) and `store` holding all three, so that
// the next save would change the file.
struct VerifyCacheCase
{
    Run run;
    VerifyStore store;
    std::filesystem::path cache;
    std::string saved;

    // Null (and `error` says why) when the setup itself failed.
    static std::unique_ptr<VerifyCacheCase>
    make(const std::filesystem::path& runs, const std::filesystem::path& cache, std::string& error);
};

} // namespace ckpt::test
