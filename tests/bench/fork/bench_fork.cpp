// Preparing a fork of a 1 GiB epoch: LaunchPrep::prepare + apply against the
// same file work done by hand (mkdir, link(2), symlink), median of REPS runs.
//
// The 1 GiB model.h5 is a sparse file: link(2) never touches a file's data, so
// the goal's path (hard links) costs the same for a sparse and a written file,
// and the bench does not write 1 GiB to a disk shared with other work. The
// checksum-on figure reads it whole (the restart check's CRC-32): for a sparse
// file that is a read of zero pages, the same as a written file already in the
// page cache; a cold read from disk costs more (reported for what it is).
#include "CandleFixture.h"
#include "checksum/Crc32.h"
#include "launch/LaunchPrep.h"
#include "launch/LaunchRegistry.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using namespace ckpt;
using test::CandleFixture;
namespace fs = std::filesystem;

namespace {

constexpr double kGoalMs = 50.0;
constexpr off_t kModelBytes = off_t(1) << 30;
constexpr int kForkEpoch = 6;
constexpr int kEpochs = 10;

void fail(const std::string& why)
{
    std::fprintf(stderr, "bench_fork: %s\n", why.c_str());
    std::exit(2);
}

// RUN/ckpts with kEpochs small epochs, epoch kForkEpoch holding a sparse 1 GiB
// model.h5; its ckpt-info.json records the model's CRC-32, or "__DISABLED__".
fs::path makeRun(const fs::path& folder, bool checksums)
{
    const fs::path root = folder / "ckpts";
    CandleFixture run(root);
    for (int e = 1; e <= kEpochs; ++e)
        run.addEpoch(e, 1.0 / e, 4096, e == 1);
    run.linkAbsolute("last", kEpochs);
    const fs::path model = run.epochDir(kForkEpoch) / "model.h5";
    fs::remove(model);
    const int fd = ::open(model.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0 || ::ftruncate(fd, kModelBytes) != 0 || ::close(fd) != 0)
        fail("cannot make " + model.string());
    std::string checksum = "__DISABLED__";
    if (checksums) {
        auto crc = Crc32::ofFile(model);
        if (!crc)
            fail(crc.error().message);
        checksum = Crc32::toDecimal(*crc);
    }
    run.writeInfo(kForkEpoch,
                  "{\"epoch\": " + std::to_string(kForkEpoch) +
                      ", \"save_best_metric\": \"val_loss\", \"best_metric_last\": 0.2, "
                      "\"model_file\": \"model.h5\", \"checksum\": \"" +
                      checksum +
                      "\", \"timestamp\": \"2026-11-24 10:00:00\", \"time_elapsed\": 1.0, "
                      "\"metadata\": null}");
    std::string log = "epoch,loss,val_loss\n";
    for (int e = 0; e < kEpochs; ++e)
        log += std::to_string(e) + "," + std::to_string(1.0 / (e + 1)) + "," +
               std::to_string(1.1 / (e + 1)) + "\n";
    CandleFixture::writeText(folder / "training.log", log);
    CandleFixture::writeText(folder / "config.ini",
                             "[Global_Params]\nepochs = 10\nlearning_rate = 0.01\n");
    return root;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double timeMs(const std::function<void()>& work)
{
    const auto t0 = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

// LaunchPrep::prepare + apply of a fork into `into`.
double forkOnce(const fs::path& root, const fs::path& into, const LaunchRegistry& registry)
{
    PrepRequest r;
    r.runRoot = root;
    r.fromEpoch = kForkEpoch;
    r.mode = LaunchPlan::Mode::Fork;
    r.forkFolder = into;
    r.configFile = (root.parent_path() / "config.ini").string();
    r.commandTemplate = "python3 train.py --config_file {config} --epochs {epochs}";
    r.edits.push_back(ParamEdit::parse("learning_rate=0.001").value());
    return timeMs([&] {
        auto prepared = LaunchPrep::prepare(r, registry);
        if (!prepared)
            fail(prepared.error().message);
        if (Status st = LaunchPrep::apply(*prepared); !st)
            fail(st.error().message);
    });
}

// The same file work by hand: the fork's folders, a link per file of the
// epoch, and the `last` symlink.
double baselineOnce(const fs::path& root, const fs::path& into)
{
    const std::string name = CandleFixture(root).epochDir(kForkEpoch).filename().string();
    const fs::path from = root / "epochs" / name;
    return timeMs([&] {
        const fs::path epoch = into / "ckpts" / "epochs" / name;
        for (const fs::path& dir : {into, into / "ckpts", into / "ckpts" / "epochs", epoch})
            if (::mkdir(dir.c_str(), 0777) != 0)
                fail("mkdir " + dir.string());
        for (const char* file : {"model.h5", "ckpt-info.json"})
            if (::link((from / file).c_str(), (epoch / file).c_str()) != 0)
                fail("link " + (epoch / file).string());
        const std::string target = "epochs/" + name;
        if (::symlink(target.c_str(), (into / "ckpts" / "last").c_str()) != 0)
            fail("symlink");
    });
}

void report(const char* what, double ms, double baseline)
{
    std::printf("@result|fork|1 GiB epoch (sparse), %s (same file work by hand: %.2f ms)|%.1f ms|"
                "< %.0f ms|%s\n",
                what, baseline, ms, kGoalMs, ms < kGoalMs ? "MET" : "MISSED");
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2)
        fail("usage: bench_fork DATA_DIR [REPS [off|on]]");
    const fs::path data = fs::absolute(argv[1]);
    const int reps = argc > 2 ? std::max(3, std::atoi(argv[2])) : 15;
    fs::create_directories(data);
    const LaunchRegistry registry((data / "registry.json").string());

    struct Case
    {
        const char* what;
        bool checksums;
    };
    bool missed = false;
    for (const Case& c : {Case{"checksums off: prepare+apply", false},
                          Case{"checksums on: prepare (with CRC-32 of the epoch)+apply", true}}) {
        if (argc > 3 && std::string(argv[3]) != (c.checksums ? "on" : "off"))
            continue; // one case only (for a profiler)
        const fs::path folder = data / (c.checksums ? "RUN-crc" : "RUN");
        const fs::path root = makeRun(folder, c.checksums);
        std::vector<double> ours, base;
        for (int i = 0; i < reps + 1; ++i) { // the first of each is a warm-up
            const fs::path a = data / ("fork-" + std::to_string(i));
            const fs::path b = data / ("base-" + std::to_string(i));
            const double t = forkOnce(root, a, registry);
            const double u = baselineOnce(root, b);
            if (i > 0) {
                ours.push_back(t);
                base.push_back(u);
            }
            fs::remove_all(a);
            fs::remove_all(b);
        }
        const double ms = median(ours);
        const double baseline = median(base);
        std::fprintf(stderr, "%s: median %.2f ms over %d (min %.2f, max %.2f); baseline %.3f ms\n",
                     c.what, ms, reps, *std::min_element(ours.begin(), ours.end()),
                     *std::max_element(ours.begin(), ours.end()), baseline);
        report(c.what, ms, baseline);
        missed = missed || (!c.checksums && ms >= kGoalMs);
    }
    return missed ? 1 : 0;
}
