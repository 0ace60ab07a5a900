#pragma once

#include "launch/LaunchSource.h"

namespace ckpt {

// Restart or fork on this machine: LaunchPrep / LaunchSweep plan it, the
// Launcher starts it (a sweep: a local queue or one Slurm job array); a
// trainer that cannot start is undone.
class LocalLaunchSource final : public LaunchSource
{
public:
    // `base` names the run, the epoch and the mode.
    explicit LocalLaunchSource(PrepRequest base);

    std::string runName() const override;
    int fromEpoch() const override { return m_base.fromEpoch; }
    std::string exampleCommand() const override;
    bool restartsBeside() const override;
    bool canSweep() const override { return true; }
    bool previewsBackend() const override { return false; }
    Result<LaunchParameters> parameters(const LaunchChoice& choice,
                                        const Progress& progress) const override;
    Result<LaunchPreview> preview(const LaunchChoice& choice,
                                  const Progress& progress) const override;
    Result<LaunchOutcome> launch(const LaunchChoice& choice, LaunchPreview preview,
                                 const Progress& progress) const override;
    void render(LaunchPreview& preview, const LaunchChoice& choice) const override;

    // The LaunchPrep request the choice makes; an error names a bad edit.
    Result<PrepRequest> request(const LaunchChoice& choice) const;

private:
    PrepRequest m_base;
};

} // namespace ckpt
