#pragma once

#include "common/Result.h"
#include "launch/LaunchPlan.h"
#include "launch/LaunchRegistry.h"

#include <filesystem>
#include <string>

namespace ckpt::test {

// Real runs of the demo trainer for the experiment manager's tests: trained
// directly (a run Ckpt Studio did not launch), launched through Launcher, or
// forked through LaunchPrep, each in a folder below `base` and registered in
// `registry`.
class DemoRuns
{
public:
    DemoRuns(std::filesystem::path base, std::string trainer, LaunchRegistry registry);

    // Trains base/NAME to the end (lr 0.01, checksums on) with trainDemoRun;
    // returns its checkpoint root.
    Result<std::filesystem::path> train(const std::string& name, int epochs);
    // The plan that launch() starts: the config written to base/NAME/config.ini,
    // the demo trainer's command template expanded.
    Result<LaunchPlan> plan(const std::string& name, int epochs, double epochDelay);
    // Starts the trainer in base/NAME through Launcher (sleeping `epochDelay`
    // seconds after each epoch); returns the checkpoint root at once.
    Result<std::string> launch(const std::string& name, int epochs, double epochDelay);
    // Forks `root` (trained by train()) from `epoch` with one edit
    // ("learning_rate=0.05") and launches the fork; returns its root.
    Result<std::string> fork(const std::filesystem::path& root, int epoch, const std::string& edit);

    const LaunchRegistry& registry() const { return m_registry; }

private:
    static std::string configText(int epochs, double epochDelay);

    std::filesystem::path m_base;
    std::string m_trainer;
    LaunchRegistry m_registry;
};

} // namespace ckpt::test
