// Remote benchmark: `bench_remote TREE [REPS]` starts a real sshd on loopback
// (tests/support/SshServer) and measures, on TREE (made by `bench_scan make`):
// the baseline `ssh host ckpt scan --json TREE` as a process, RemoteCkpt::scan
// (time to the first run handed over, and to all of them), and how long a new
// epoch renamed into a watched run takes to reach RemoteWatch::epochAdded.
// RemoteCkpt shares one ssh connection per host (SshMultiplex): each pass
// times a scan with no master yet (cold: the handshake included, as the very
// first call of a session) and one over the master it left (every later call).
#include "CandleFixture.h"
#include "SshServer.h"
#include "remote/RemoteCkpt.h"
#include "remote/RemoteWatch.h"
#include "remote/SshMultiplex.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <vector>

using namespace ckpt;
using namespace ckpt::test;
namespace fs = std::filesystem;

namespace {

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_remote TREE [REPS]\n");
        return 2;
    }
    const fs::path tree = fs::absolute(argv[1]);
    const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
    SshServer server;
    if (!server.ok()) {
        std::fprintf(stderr, "%s\n", server.error().c_str());
        return 2;
    }
    RemoteTarget target;
    target.host = server.host().toStdString();
    target.path = tree.string();
    RemoteOptions options;
    options.ssh = server.sshCommand();
    options.ckpt = CKPT_CLI_PATH;
    const RemoteCkpt remote(target, options);

    std::vector<double> baseline, first, all, coldFirst;
    std::size_t runs = 0;
    const SshMultiplex::Plan plan = SshMultiplex::plan(options.ssh, target);
    const auto stopMaster = [&] {
        if (!plan.controlPath.isEmpty())
            QProcess::execute(options.ssh.first(),
                              options.ssh.mid(1) +
                                  QStringList{QStringLiteral("-o"),
                                              QStringLiteral("ControlPath=") + plan.controlPath,
                                              QStringLiteral("-O"), QStringLiteral("exit")} +
                                  SshMultiplex::destinationArgs(target));
    };
    const auto timedScan = [&](double& firstRun, double& total) {
        QElapsedTimer t;
        t.start();
        firstRun = -1;
        auto scan = remote.scan(tree.string(), {}, [&](const Run&, const std::string&) {
            if (firstRun < 0)
                firstRun = static_cast<double>(t.elapsed()) / 1000.0;
        });
        total = static_cast<double>(t.elapsed()) / 1000.0;
        if (scan)
            runs = scan->runs.size();
        else
            std::fprintf(stderr, "remote scan failed: %s\n", scan.error().message.c_str());
        return scan.ok();
    };
    for (int i = 0; i <= reps; ++i) { // the first pass warms caches and is not counted
        QProcess p;
        QElapsedTimer t;
        t.start();
        const QStringList cmd = server.sshCommand() +
                                QStringList{server.host(), QStringLiteral("--"),
                                            QStringLiteral(CKPT_CLI_PATH " scan --json ") +
                                                QString::fromStdString(shellQuote(tree.string()))};
        p.start(cmd.first(), cmd.mid(1));
        p.waitForFinished(600000);
        p.readAllStandardOutput();
        const double base = static_cast<double>(t.elapsed()) / 1000.0;
        stopMaster();
        double cold = 0, coldTotal = 0, firstRun = 0, total = 0;
        if (!timedScan(cold, coldTotal) || !timedScan(firstRun, total))
            return 2;
        if (i == 0)
            continue;
        baseline.push_back(base);
        coldFirst.push_back(cold);
        first.push_back(firstRun);
        all.push_back(total);
    }

    // New epochs renamed into the first run, as CANDLE saves them.
    auto scanned = remote.scan(tree.string());
    if (!scanned || scanned->runs.empty())
        return 2;
    const fs::path root = scanned->runs.front().root;
    const int last = scanned->runs.front().epochs.back().number;
    RemoteWatch watch(target, options);
    QSignalSpy added(&watch, &RemoteWatch::epochAdded);
    watch.start();
    QElapsedTimer connectTimer;
    connectTimer.start();
    while (watch.state() != RemoteWatch::State::Connected && connectTimer.elapsed() < 120000)
        QSignalSpy(&watch, &RemoteWatch::stateChanged).wait(1000);
    std::vector<double> epochLatency;
    const fs::path staging = fs::path(tree).parent_path() / ".bench_remote_staging";
    for (int i = 1; i <= 3 && watch.state() == RemoteWatch::State::Connected; ++i) {
        CandleFixture s(staging / std::to_string(i) / "ckpts");
        s.addEpoch(last + i, 0.1, 256, false);
        char name[16];
        std::snprintf(name, sizeof name, "%03d", last + i);
        added.clear();
        QElapsedTimer t;
        t.start();
        fs::rename(s.epochDir(last + i), root / "epochs" / name);
        if (!added.wait(10000)) {
            std::fprintf(stderr, "epoch %d never arrived\n", last + i);
            break;
        }
        epochLatency.push_back(static_cast<double>(t.elapsed()) / 1000.0);
    }
    watch.stop();
    std::error_code ec;
    fs::remove_all(staging, ec);

    stopMaster();
    const double b = median(baseline), f = median(first), a = median(all), c = median(coldFirst);
    const double e = epochLatency.empty() ? 99.0 : median(epochLatency);
    const bool okFirst = f < 0.3, okAll = a <= 1.5 * b, okEpoch = e < 1.0;
    const auto verdict = [](bool ok) { return ok ? "MET" : "MISSED"; };
    std::printf("remote open of %zu runs over loopback ssh, median of %d passes\n", runs, reps);
    std::printf("%-48s%9.3f s\n", "ssh host ckpt scan --json (baseline process)", b);
    std::printf("%-48s%9.3f s   (%s)\n", "RemoteCkpt::scan: first run, no master yet", c,
                plan.controlPath.isEmpty() ? qPrintable(plan.reason) : "handshake included");
    std::printf("%-48s%9.3f s   goal < 0.300  %s\n", "RemoteCkpt::scan: first run, master up", f,
                verdict(okFirst));
    std::printf("%-48s%9.3f s   %.2fx baseline, goal <= 1.5x  %s\n", "RemoteCkpt::scan: all runs",
                a, a / b, verdict(okAll));
    std::printf("%-48s%9.3f s   goal < 1.000  %s\n", "new far epoch to RemoteWatch::epochAdded", e,
                verdict(okEpoch));
    std::printf("@result|remote|%zu runs: first run over ssh (shared connection up; the very "
                "first call, handshake included: %.3f s)|%.3f s|< 0.3 s|%s\n",
                runs, c, f, verdict(okFirst));
    std::printf("@result|remote|%zu runs: whole remote open vs `ssh host ckpt scan --json` "
                "(%.3f s vs %.3f s)|%.2fx|<= 1.5x|%s\n",
                runs, a, b, a / b, verdict(okAll));
    std::printf("@result|remote|new far epoch seen through watch|%.3f s|< 1 s|%s\n", e,
                verdict(okEpoch));
    return okFirst && okAll && okEpoch ? 0 : 1;
}
