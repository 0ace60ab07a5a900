#pragma once

#include "common/Progress.h"
#include "common/Result.h"
#include "config/ConfigWriter.h"
#include "launch/LaunchPrep.h"
#include "launch/SlurmOptions.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

class SweepQueue;

// What the restart/fork dialog's fields ask for.
struct LaunchChoice
{
    LaunchPlan::Mode mode = LaunchPlan::Mode::Restart;
    std::string configFile;        // empty: the run's own
    std::string commandTemplate;   // empty: the run's latest launch's
    std::vector<std::string> sets; // "KEY=VALUE", the values as typed
    std::vector<ParamEdit> sweep;  // one fork per value; empty: no sweep
    int parallel = 1;
    bool force = false;
    LaunchPlan::Backend backend = LaunchPlan::Backend::Local;
    SlurmOptions slurm;
    // A fork's new folder, beside the parent's run folder (not for a sweep);
    // empty: <parent>-fork-e<epoch>[-KEY-VALUE...][-N] (the parent's name
    // without its own fork part, the changed values).
    std::string forkName;
};

// A run's parameters as the dialog's table lists them.
struct LaunchParameters
{
    struct Parameter
    {
        std::string section;
        std::string key;
        std::string literal; // as Python writes it
        int line = 0;
    };
    std::string file;
    std::vector<Parameter> list;

    static LaunchParameters from(const ParamSet& params);
};

// The preview of a launch: what will happen, checked before anything changes.
struct LaunchPreview
{
    std::string text;                           // the plan in words
    std::string batchScript;                    // what sbatch gets (Slurm), else empty
    std::string configFile;                     // the parameter file the launch edits
    std::string commandTemplate;                // the template it expands
    std::vector<std::string> checkFailures;     // the epoch's check refusals (forced past)
    std::optional<LaunchParameters> parameters; // the original ones, when read on the way
    int forks = 1;
    // A fork's folder name as planned (empty: no single fork): the user's, or
    // by default the parent's name, the epoch and the changed values.
    std::string forkName;
    // The local source's plans, carried from preview to launch (empty for a far launch).
    std::vector<PreparedLaunch> prepared;
};

struct LaunchOutcome
{
    std::vector<std::string> roots;    // the launched runs (a far run: its ssh:// URL)
    std::shared_ptr<SweepQueue> queue; // a local sweep's queue still to feed
};

// Where a restart or fork from an epoch is planned and started: this machine
// (LocalLaunchSource) or the far `ckpt` over ssh (RemoteLaunchSource). The
// dialog calls parameters(), preview() and launch() on a worker thread (each
// is plain and synchronous), render() on its own.
class LaunchSource
{
public:
    virtual ~LaunchSource() = default;

    // The run as the dialog's heading names it.
    virtual std::string runName() const = 0;
    // The far host ("" on this machine).
    virtual std::string host() const { return {}; }
    virtual int fromEpoch() const = 0;
    // Does a restart go on in a new folder beside the run (Lightning's next
    // version) rather than in place, moving the later epochs aside?
    virtual bool restartsBeside() const { return false; }
    // A command template for the run's format, as the dialog's placeholder shows it.
    virtual std::string exampleCommand() const
    {
        return "python3 train.py --config {config} --checkpoint {checkpoint} ...";
    }
    virtual bool canSweep() const = 0;
    // Does the preview depend on the backend and Slurm options (asked again
    // when they change) rather than being rendered from them by render()?
    virtual bool previewsBackend() const = 0;

    virtual Result<LaunchParameters> parameters(const LaunchChoice& choice,
                                                const Progress& progress) const = 0;
    virtual Result<LaunchPreview> preview(const LaunchChoice& choice,
                                          const Progress& progress) const = 0;
    // Carries out `preview` (the plan the user saw).
    virtual Result<LaunchOutcome> launch(const LaunchChoice& choice, LaunchPreview preview,
                                         const Progress& progress) const = 0;
    // Cheap: the preview's text and batch script for the choice's backend and
    // Slurm options (nothing to do when previewsBackend()).
    virtual void render(LaunchPreview& preview, const LaunchChoice& choice) const = 0;
};

} // namespace ckpt
