#pragma once

#include "launch/LaunchSource.h"
#include "remote/RemoteCkpt.h"

namespace ckpt {

// Restart or fork on the far side: the parameters from `ckpt params`, the
// preview from `ckpt launch --dry-run`, the launch from `ckpt launch
// --detach` (the far supervisor or Slurm keeps the run). The table's edits
// become `--set KEY=VALUE`; a fork's folder is beside the parent there.
// Errors are the far ckpt's, with the host named.
class RemoteLaunchSource final : public LaunchSource
{
public:
    // `farRun` is the run's root on the far side; `urlPrefix`
    // ("ssh://user@host:port") makes a far root a run root of the window.
    RemoteLaunchSource(RemoteCkpt client, std::string farRun, int fromEpoch, std::string urlPrefix);

    std::string runName() const override { return m_run; }
    std::string host() const override { return m_client.target().display(); }
    int fromEpoch() const override { return m_from; }
    bool canSweep() const override { return false; }
    bool previewsBackend() const override { return true; }
    Result<LaunchParameters> parameters(const LaunchChoice& choice,
                                        const Progress& progress) const override;
    Result<LaunchPreview> preview(const LaunchChoice& choice,
                                  const Progress& progress) const override;
    Result<LaunchOutcome> launch(const LaunchChoice& choice, LaunchPreview preview,
                                 const Progress& progress) const override;
    void render(LaunchPreview&, const LaunchChoice&) const override {}

    // What `ckpt launch` is asked (tests read it).
    Result<RemoteLaunchRequest> request(const LaunchChoice& choice, bool dryRun) const;

private:
    RemoteCkpt m_client;
    std::string m_run;
    int m_from;
    std::string m_prefix;
};

} // namespace ckpt
