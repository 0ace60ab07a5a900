#pragma once

#include <QStringList>

#include <span>

namespace ckpt::cli {

// One subcommand of `ckpt`: `arguments` excludes the program and command names.
struct Command
{
    const char* name;
    const char* summary;
    int (*run)(const QStringList& arguments);
    // Reads model files through libhdf5, which some damaged files crash: the
    // command runs in a forked copy, so that a crash becomes an error naming
    // the file (H5Probe::isolate).
    bool readsModels = false;
};

std::span<const Command> commands();

int runScan(const QStringList& arguments);
int runRelink(const QStringList& arguments);
int runPrune(const QStringList& arguments);
int runHistory(const QStringList& arguments);
int runVerify(const QStringList& arguments);
int runWatch(const QStringList& arguments);
int runInspect(const QStringList& arguments);
int runDiff(const QStringList& arguments);
int runParams(const QStringList& arguments);
int runRuns(const QStringList& arguments);
int runStop(const QStringList& arguments);
int runLaunch(const QStringList& arguments);
int runLineage(const QStringList& arguments);
int runVersion(const QStringList& arguments);

} // namespace ckpt::cli
