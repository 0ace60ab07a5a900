#include "ExperimentsBench.h"

#include "GapProbe.h"
#include "experiments/ExperimentsPanel.h"
#include "experiments/LineageView.h"
#include "launch/LaunchRecord.h"
#include "launch/LaunchRegistry.h"
#include "launch/LineageGraph.h"
#include "launch/ProcessProbe.h"
#include "models/LaunchedRunsModel.h"

#include <QApplication>

#include <cstdio>
#include <fstream>
#include <unistd.h>

using namespace ckpt;
namespace fs = std::filesystem;

namespace {

fs::path rootOf(const fs::path& dir, int i)
{
    char name[64];
    std::snprintf(name, sizeof name, "EXP%03d/RUN%03d/ckpts", i / 10, i);
    return dir / name;
}

void writeRecords(const fs::path& dir, int runs, const LaunchRegistry& registry)
{
    const auto self = ProcessProbe::read(::getpid());
    for (int i = 0; i < runs; ++i) {
        const fs::path root = rootOf(dir, i);
        fs::create_directories(LaunchRecord::launchDir(root));
        LaunchAttempt a;
        a.plan.runRoot = root.string();
        a.plan.name = "RUN" + std::to_string(i);
        a.plan.argv = {"ckpt-demo-train", "--epochs", "20"};
        if (i % 5 != 0) { // four in five are forks of the run before them
            a.plan.mode = LaunchPlan::Mode::Fork;
            a.plan.parent = LaunchParent{rootOf(dir, i - 1).string(), 5, "", {}, std::nullopt};
            a.plan.parent->changes.push_back({"learning_rate", "0.01", std::to_string(0.01 / i)});
        }
        a.submitted = isoNow();
        a.logPath = (LaunchRecord::launchDir(root) / "attempt-1.log").string();
        a.eventsPath = (LaunchRecord::launchDir(root) / "attempt-1.events").string();
        std::ofstream(a.logPath) << "Epoch 1/20 - loss: 1.0\n";
        LaunchSegment seg;
        seg.pid = ::getpid();
        seg.pidStartTime = self ? self->startTime : 0;
        seg.started = a.submitted;
        a.segments.push_back(seg);
        a.state = RunState::Running;
        LaunchRecord record;
        record.runRoot = root.string();
        record.name = a.plan.name;
        record.attempts.push_back(a);
        (void)record.save();
        (void)registry.addLaunched({root.string(), record.name, {}});
    }
}

} // namespace

ExperimentsBenchResult runExperimentsBench(const fs::path& dir, int runs, int durationMs,
                                           GapProbe& probe)
{
    fs::remove_all(dir);
    const LaunchRegistry registry(dir / "launched-runs.json");
    writeRecords(dir, runs, registry);

    ExperimentsBenchResult result;
    QElapsedTimer clock;
    probe.start();
    clock.start();
    LaunchedRunsModel model(registry); // its first refresh starts here
    ExperimentsPanel panel(&model);
    panel.resize(1400, 500);
    panel.show();
    QObject::connect(&model, &LaunchedRunsModel::refreshed, [&] {
        if (result.firstShownMs < 0 && model.rowCount() == runs)
            result.firstShownMs = clock.nsecsElapsed() / 1e6;
    });
    QTimer extra; // on-demand refreshes on top of the schedule: each supersedes the last
    extra.setInterval(250);
    QObject::connect(&extra, &QTimer::timeout, &model, &LaunchedRunsModel::refresh);
    extra.start();
    QTimer::singleShot(durationMs, qApp, [] { QApplication::exit(0); });
    QApplication::exec();
    probe.stop();
    result.stallMs = probe.maxGapMs();
    result.cpuMs = probe.maxCpuMs();
    result.refreshes = model.refreshCount();
    result.rows = model.rowCount();
    result.nodes = int(panel.lineage()->graph().nodes.size());
    return result;
}
