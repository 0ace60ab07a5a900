#pragma once

#include "launch/LaunchPlan.h"
#include "launch/SlurmOptions.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ckpt {

// Typed answers of the far `ckpt` for the experiment manager and the model
// views (RemoteCkpt's params, launch, runs, stop, lineage, inspect). Each keeps
// the document it was read from in `json` for what the fields leave out.

// One parameter of `ckpt params RUN --json`.
struct RemoteParam
{
    std::string section;
    std::string key;
    std::string literal; // as Python writes it ("0.01", "'adam'", "[32, 32]")
    nlohmann::ordered_json value;
    int line = 0;
};

struct RemoteParams
{
    std::string file;   // the parameter file on the far side
    std::string format; // "ini", "lightning hparams", ...
    std::vector<RemoteParam> parameters;
    std::vector<std::string> notes; // what the far reader could not read
    nlohmann::ordered_json json;
};

// What `ckpt launch RUN --from N ... --json --detach` is asked to do.
struct RemoteLaunchRequest
{
    std::string run;
    int from = 0;
    LaunchPlan::Mode mode = LaunchPlan::Mode::Restart;
    std::string into;                           // a fork's folder; empty: beside the parent
    std::string config;                         // the parameter file to edit; empty: the run's
    std::vector<std::string> sets;              // "KEY=VALUE" edits
    std::optional<LaunchPlan::Backend> backend; // empty: ckpt's default (local)
    SlurmOptions slurm;                         // partition, time, cpus, gpus, memory, extraLines
    bool force = false;
    bool dryRun = false;
    std::vector<std::string> commandTemplate; // after "--"; empty: the run's last launch
};

// `ckpt launch`'s answer: the launched (or, dry run, planned) run.
struct RemoteLaunched
{
    std::string run;
    std::string mode; // "restart", "fork"
    int from = 0;
    std::string parent;
    std::string backend;
    std::optional<std::string> jobId;
    std::optional<std::int64_t> pid;
    std::string config;
    std::vector<std::string> argv;
    std::string supersededDir; // a restart's epochs moved aside here
    std::string state;         // "planned", "running", "queued", ...
    // The preview (empty from a far ckpt older than these members).
    std::string commandTemplate;
    std::string plan;        // the plan in words, as `ckpt launch --dry-run` prints it
    std::string batchScript; // what sbatch gets (Slurm)
    std::vector<std::string> checkFailures;
    nlohmann::ordered_json json;
};

// One run of `ckpt runs --json`.
struct RemoteLaunchedRun
{
    std::string run;
    std::string name;
    std::string state; // "running", "completed", ..., "gone"; empty when unknown
    std::string backend;
    std::string mode;
    std::optional<std::string> jobId;
    std::optional<std::string> slurmState;
    std::vector<std::int64_t> pids;
    std::optional<std::string> parentRun;
    std::optional<int> parentEpoch;
    std::string started;
    std::string ended;
    std::optional<double> durationSeconds;
    std::string log;
    std::string error;
};

// `ckpt stop RUN --json`.
struct RemoteStopped
{
    std::string run;
    std::string state;
    std::optional<std::string> slurmState;
    std::optional<int> exitStatus;
};

// One edge of `ckpt lineage RUN --json`: `child` made from `parent`'s epoch.
struct RemoteLineageEdge
{
    struct Change
    {
        std::string key;
        std::optional<std::string> from;
        std::string to;
    };
    std::string parent;
    int epoch = 0;
    std::string child;
    std::string mode;
    std::vector<Change> changes;
    std::string submitted;
    std::string state;
};

struct RemoteLineage
{
    std::string run;
    std::vector<RemoteLineageEdge> ancestors;
    std::vector<RemoteLineageEdge> descendants;
    nlohmann::ordered_json json;
};

// `ckpt inspect FILE --json`: what the model views list; the whole document
// (HDF5 tree, Keras summary, zip entries) stays in `json`.
struct RemoteInspect
{
    struct Tensor
    {
        std::string name; // the tensor's name or HDF5 path
        std::vector<std::uint64_t> shape;
        std::string dtype;
        std::optional<std::uint64_t> bytes; // a TensorSource's tensors say; HDF5 stats do not
        bool optimizerState = false;
        // Statistics, when the far side computed them (not with --no-stats).
        std::optional<double> min, max, mean, std, l2;
        std::optional<std::uint64_t> count, zeros, nan, inf;
        std::string error; // why the far side could not read it (no statistics then)
    };
    std::string file;
    std::string format;      // "hdf5", "zip", "torch", "mindspore", ...
    std::string weightsFile; // a Keras 3 archive: the weights file inside it
    std::uint64_t bytes = 0;
    std::vector<Tensor> tensors; // the file's, or a Keras 3 archive's weights
    std::vector<std::string> problems;
    nlohmann::ordered_json json;
};

// `ckpt prune RUN --keep-limit K --keep-mode M --yes --json`: what the far side deleted.
struct RemotePruned
{
    struct Skipped
    {
        int epoch = 0;
        std::string reason;
    };
    std::vector<int> deleted;
    std::uint64_t bytesFreed = 0;
    std::vector<Skipped> skipped;
    std::vector<std::string> warnings;
    // The connection dropped before the answer: `deleted` was read back from a
    // new scan (the planned epochs no longer there).
    bool confirmedByRescan = false;
    nlohmann::ordered_json json;
};

} // namespace ckpt
