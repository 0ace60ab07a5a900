#pragma once

#include "common/Result.h"

#include <chrono>
#include <filesystem>
#include <string>

namespace ckpt {

// A work/ directory left by an interrupted save (CANDLE writes a checkpoint
// into work/ and renames it to epochs/NNN). Never deleted: moved aside, under
// the run lock, with one rename, and recorded in the run's ckpt.log, so that the
// next save starts clean and the partial files stay there for a person to check.
class LeftoverWork
{
public:
    struct Options
    {
        // Refuse while anything in work/ changed this recently: a save may be
        // in progress. Zero disables the check.
        std::chrono::seconds quietFor{60};
        std::string actor; // "user@host" for the audit; empty: this process's
    };

    // Renames <run>/work to <run>/work.interrupted-<UTC time>; returns the new path.
    static Result<std::filesystem::path> moveAside(const std::filesystem::path& runRoot,
                                                   const Options& options);
};

} // namespace ckpt
