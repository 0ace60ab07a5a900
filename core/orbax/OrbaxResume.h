#pragma once

#include "layout/Resume.h"

namespace ckpt {

// How Orbax CheckpointManager users resume: `manager.restore(step)` from the
// manager's directory (the run root), training on from step + 1. A restart in
// place moves the later step folders aside (never an in-progress
// `.orbax-checkpoint-tmp*` folder as a resume point); a fork is a new manager
// directory holding the chosen step folder. Orbax keeps no hyperparameters:
// the config file is the one the user names once for the run.
//
// Placeholders: {step} (the step restored), {epoch} and {initial_epoch} (the
// same step: Orbax counts steps only) and {checkpoint} (the step folder).
class OrbaxResume final : public Resume
{
public:
    std::filesystem::path runFolder(const std::filesystem::path& root) const override;
    Result<std::vector<std::string>> check(const std::filesystem::path& epochPath, int epoch,
                                           const Progress& progress) const override;
    std::map<std::string, std::string>
    values(const Run& run, const Epoch& from, const std::filesystem::path& newRoot,
           const std::filesystem::path& runFolder) const override;
    std::vector<std::string> requeueArguments() const override;
    std::string exampleCommand() const override;

    static const OrbaxResume& instance();
};

} // namespace ckpt
