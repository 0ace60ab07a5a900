// The watcher's cost to handle one new epoch against a full Scanner::scan of the
// same tree, both as CPU time of this process (all threads) in the same run.
//
//   bench_watch [--epochs N] [--reps R] [--dir D]
// Builds one CANDLE run of N epochs below D (a temporary folder by default),
// scans it R times, then saves R new epochs the CANDLE way (files into work/,
// work/ renamed to epochs/NNN, `last` relinked) and measures the CPU spent from
// after the rename until the watcher has reported everything about it. Prints
// "key=value" pairs; medians over R.

#include "scan/Scanner.h"
#include "watch/RunWatcher.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace ckpt;
namespace fs = std::filesystem;

namespace {

double cpuSeconds()
{
    timespec ts{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::string epochName(int epoch)
{
    char name[16];
    std::snprintf(name, sizeof name, "%03d", epoch);
    return name;
}

void writeFile(const fs::path& path, const std::string& text)
{
    std::ofstream(path, std::ios::binary) << text;
}

// The files of one save, written into `dir` (work/ or epochs/NNN directly).
void writeSave(const fs::path& dir, int epoch)
{
    fs::create_directories(dir);
    writeFile(dir / "model.h5", std::string(64, static_cast<char>(epoch & 0x7f)));
    writeFile(dir / "ckpt-info.json",
              "{\"epoch\": " + std::to_string(epoch) +
                  ", \"save_best_metric\": \"val_loss\", \"best_metric_last\": 0.5, "
                  "\"model_file\": \"model.h5\", \"checksum\": \"__DISABLED__\", \"timestamp\": "
                  "\"2026-11-22 13:47:07\", \"time_elapsed\": 0.5, \"metadata\": \"bench\"}");
}

void relinkLast(const fs::path& root, int epoch)
{
    fs::remove(root / "last");
    fs::create_directory_symlink(root / "epochs" / epochName(epoch), root / "last");
}

std::map<std::string, std::string> parseArgs(int argc, char** argv)
{
    std::map<std::string, std::string> args;
    for (int i = 1; i + 1 < argc; i += 2)
        args[argv[i]] = argv[i + 1];
    return args;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    auto args = parseArgs(argc, argv);
    const int epochs = std::stoi(args.count("--epochs") ? args["--epochs"] : "10000");
    const int reps = std::stoi(args.count("--reps") ? args["--reps"] : "15");
    QTemporaryDir tmp;
    const fs::path drop =
        args.count("--dir") ? fs::path(args["--dir"]) : fs::path(tmp.path().toStdString());
    const fs::path root = drop / "exp" / "run1" / "save" / "ckpts";
    for (int e = 1; e <= epochs; ++e)
        writeSave(root / "epochs" / epochName(e), e);
    relinkLast(root, epochs);

    std::vector<double> scanCpu, scanWall;
    for (int r = 0; r < reps; ++r) {
        QElapsedTimer wall;
        wall.start();
        const double c0 = cpuSeconds();
        auto outcome = Scanner::scan(drop);
        scanCpu.push_back(cpuSeconds() - c0);
        scanWall.push_back(static_cast<double>(wall.nsecsElapsed()) * 1e-9);
        if (!outcome || outcome->runs.size() != 1 ||
            outcome->runs[0].epochs.size() != static_cast<std::size_t>(epochs)) {
            std::fprintf(stderr, "scan did not find the run\n");
            return 1;
        }
    }

    RunWatcher::Options options;
    options.rescanIntervalMs = 0;
    RunWatcher watcher(options);
    watcher.addFolder(QString::fromStdString(drop.string()));
    if (watcher.runs().size() != 1)
        return 1;

    // Waiting blocks in the event loop (no spinning), so the CPU time measured is
    // the watcher's own.
    bool added = false, linked = false, liveOff = false, liveOn = false;
    QEventLoop loop;
    std::function<bool()> done;
    auto check = [&] {
        if (done && done())
            loop.quit();
    };
    QObject::connect(&watcher, &RunWatcher::epochAdded, [&] {
        added = true;
        check();
    });
    QObject::connect(&watcher, &RunWatcher::linkChanged, [&] {
        linked = true;
        check();
    });
    QObject::connect(&watcher, &RunWatcher::saveInProgress, [&](const QString&, bool on) {
        (on ? liveOn : liveOff) = true;
        check();
    });
    QTimer limit;
    limit.setSingleShot(true);
    QObject::connect(&limit, &QTimer::timeout, &loop, &QEventLoop::quit);
    auto waitFor = [&](std::function<bool()> condition) {
        done = std::move(condition);
        if (!done()) {
            limit.start(5000);
            loop.exec();
            limit.stop();
        }
        return done();
    };

    std::vector<double> eventCpu, eventWall;
    for (int r = 0; r < reps; ++r) {
        const int epoch = epochs + 1 + r;
        added = linked = liveOff = liveOn = false;
        writeSave(root / "work", epoch);
        if (!waitFor([&] { return liveOn; })) {
            std::fprintf(stderr, "work/ not seen\n");
            return 1;
        }
        // The writer's own syscalls are not the watcher's cost: the clock starts
        // after them (inotify queues the events meanwhile).
        fs::rename(root / "work", root / "epochs" / epochName(epoch));
        relinkLast(root, epoch);
        QElapsedTimer wall;
        wall.start();
        const double c0 = cpuSeconds();
        if (!waitFor([&] { return added && linked && liveOff; })) {
            std::fprintf(stderr, "new epoch %d not reported\n", epoch);
            return 1;
        }
        eventCpu.push_back(cpuSeconds() - c0);
        eventWall.push_back(static_cast<double>(wall.nsecsElapsed()) * 1e-9);
    }

    // Polling mode: the cost of one pass when nothing changed.
    RunWatcher::Options pollOptions = options;
    pollOptions.polling = true;
    pollOptions.pollIntervalMs = 3600 * 1000;
    RunWatcher poller(pollOptions);
    poller.addFolder(QString::fromStdString(drop.string()));
    std::vector<double> pollCpu;
    for (int r = 0; r < reps; ++r) {
        const double c0 = cpuSeconds();
        poller.pollNow();
        pollCpu.push_back(cpuSeconds() - c0);
    }

    std::printf("epochs=%d scan_cpu=%.6f scan_wall=%.6f event_cpu=%.6f event_wall=%.6f "
                "poll_cpu=%.6f watched=%lld\n",
                epochs, median(scanCpu), median(scanWall), median(eventCpu), median(eventWall),
                median(pollCpu), static_cast<long long>(poller.watchedPaths().size()));
    return 0;
}
