// Plot benchmark: new data to painted frame (the decimation included) and a
// replot, each with 1e6 points against 1e4 raw points (goal <= 3x), and
// appending one point then replotting against a plain replot (goal <= 1.2x;
// against a replot of the picture the appends left too, for information).
// Every figure is the median of `reps` repetitions measured in this one run.
// The plot builds big curves on the pool: "new data to painted frame" counts
// the GUI thread's CPU from the hand-over until the new curves are painted
// (the event loop waiting for the build included), and the build itself is
// reported apart: its wall latency to the painted frame and the CPU of the
// other threads (the build, and freeing the replaced curves).
// Usage: bench_plot [reps]   (run on the offscreen platform; see run.sh)
#include "../../plot/SyntheticHistory.h"
#include "plot/MetricPlot.h"

#include <QApplication>
#include <QThreadPool>
#include <QWheelEvent>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <functional>
#include <vector>

namespace {

// CPU time of this (the GUI) thread: painting happens here, and unlike wall
// time it does not count the time other processes hold the shared cores.
double threadMs()
{
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

double clockMs(clockid_t clock)
{
    timespec t{};
    clock_gettime(clock, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// Until curves built on the pool are shown (at once when built here).
void waitForCurves(ckpt::MetricPlot& plot)
{
    while (plot.isLoading())
        QApplication::processEvents(QEventLoop::WaitForMoreEvents);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

double medianMs(int reps, const std::function<void()>& work)
{
    std::vector<double> ms;
    work(); // warm-up: first paint, caches
    for (int i = 0; i < reps; ++i) {
        const double start = threadMs();
        work();
        ms.push_back(threadMs() - start);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

struct Figures
{
    double replot = 0.0;
    double appendReplot = 0.0;
    // A replot of the plot as the appends left it: their values (0.5, 0.6)
    // widen the value axis twelvefold, a picture that may cost more to paint
    // whatever the data's size (information: the append's own work).
    double replotAfterAppends = 0.0;
    double zoomReplot = 0.0; // a wheel step re-reduces the visible window
    // New data to painted frame: the history handed over, reduced to the
    // pixels (smoothed when on) and painted.
    double load = 0.0;
    double latency = 0.0;  // wall time of the same, the build on the pool included
    double otherCpu = 0.0; // CPU of the other threads meanwhile (the build, freeing)
};

// Two metrics of `rows` epochs each: 2 x rows points in two graphs.
Figures measure(int rows, double smoothing, int reps)
{
    ckpt::MetricPlot plot;
    plot.resize(900, 560);
    plot.show();
    std::vector<ckpt::MetricPlot::RunHistory> runs;
    runs.push_back({QStringLiteral("a"), QStringLiteral("run-a"),
                    ckpt::test::longHistory(rows, {"loss", "val_loss"})});
    plot.setRuns(std::move(runs));
    plot.setMetrics({QStringLiteral("loss"), QStringLiteral("val_loss")});
    plot.setSmoothing(smoothing);
    waitForCurves(plot);
    QApplication::processEvents();

    Figures f;
    f.replot = medianMs(reps, [&] { plot.replotNow(); });
    {
        const ckpt::MetricHistory history = ckpt::test::longHistory(rows, {"loss", "val_loss"});
        std::vector<double> ms;
        std::vector<double> wall;
        std::vector<double> other;
        for (int i = 0; i <= reps; ++i) { // the first is the warm-up
            std::vector<ckpt::MetricPlot::RunHistory> fresh;
            fresh.push_back({QStringLiteral("a"), QStringLiteral("run-a"), history}); // not timed
            QApplication::processEvents(); // nothing left over from the last round
            const double start = threadMs();
            const double wallStart = clockMs(CLOCK_MONOTONIC);
            const double processStart = clockMs(CLOCK_PROCESS_CPUTIME_ID);
            plot.setRuns(std::move(fresh));
            waitForCurves(plot);
            plot.replotNow();
            const double gui = threadMs() - start;
            const double latency = clockMs(CLOCK_MONOTONIC) - wallStart;
            QThreadPool::globalInstance()->waitForDone(); // the replaced curves freed too
            const double guiAll = threadMs() - start;
            const double process = clockMs(CLOCK_PROCESS_CPUTIME_ID) - processStart;
            if (i > 0) {
                ms.push_back(gui);
                wall.push_back(latency);
                other.push_back(process - guiAll);
            }
        }
        f.load = median(ms);
        f.latency = median(wall);
        f.otherCpu = median(other);
    }
    int epoch = rows;
    f.appendReplot = medianMs(reps, [&] {
        ++epoch;
        plot.appendRow(QStringLiteral("a"),
                       ckpt::test::makeRow(0, epoch, {{"loss", 0.5}, {"val_loss", 0.6}},
                                           1'700'000'000.0 + 30.0 * epoch));
        plot.replotNow();
    });
    f.replotAfterAppends = medianMs(reps, [&] { plot.replotNow(); });
    QWidget* canvas = plot.childAt(plot.rect().center());
    const QPointF at = canvas->mapFrom(&plot, plot.rect().center());
    int step = 0;
    f.zoomReplot = medianMs(reps, [&] {
        const int delta = (step++ % 2 == 0) ? 120 : -120; // in, out, in, ...
        QWheelEvent wheel(at, canvas->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(canvas, &wheel);
        plot.replotNow();
    });
    return f;
}

// goal <= 0: reported for information, no goal.
void row(const char* what, double ours, double base, double goal)
{
    const double ratio = ours / base;
    if (goal <= 0.0) {
        std::printf("%-44s %10.2f %10.2f %8.2fx %7s  %s\n", what, ours, base, ratio, "-", "info");
        std::printf("@result|plot|%s (GUI-thread CPU)|%.2fx|-|info\n", what, ratio);
    } else {
        std::printf("%-44s %10.2f %10.2f %8.2fx %6.1fx  %s\n", what, ours, base, ratio, goal,
                    ratio <= goal ? "ok" : "MISSED");
        std::printf("@result|plot|%s (GUI-thread CPU)|%.2fx|<= %.1fx|%s\n", what, ratio, goal,
                    ratio <= goal ? "MET" : "MISSED");
    }
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const int reps = argc > 1 ? std::max(3, std::atoi(argv[1])) : 15;

    std::printf("%-44s %10s %10s %9s %7s\n", "measure (median GUI-thread CPU ms)", "ours",
                "baseline", "ratio", "goal");
    for (const double smoothing : {0.0, 0.6}) {
        const Figures small = measure(5'000, smoothing, reps);
        const Figures large = measure(500'000, smoothing, reps);
        // Two curves of 4,000 points: the most that is drawn raw, unreduced.
        const Figures raw = measure(4'000, smoothing, reps);
        const bool on = smoothing > 0.0;
        row(on ? "new data to painted frame, 1e6 vs 8e3 raw points, smoothing on"
               : "new data to painted frame (decimation included), 1e6 vs 8e3 raw points",
            large.load, raw.load, 3.0);
        row(on ? "replot 1e6 vs 1e4 points, smoothing on" : "replot 1e6 vs 1e4 points",
            large.replot, small.replot, 3.0);
        row(on ? "append+replot vs replot (1e6), smoothing on" : "append+replot vs replot (1e6)",
            large.appendReplot, large.replot, 1.2);
        row(on ? "append+replot vs replot of the picture left (1e6), smooth"
               : "append+replot vs replot of the picture left (1e6)",
            large.appendReplot, large.replotAfterAppends, 0.0);
        row(on ? "wheel zoom+replot 1e6 vs replot 1e4, smooth"
               : "wheel zoom+replot 1e6 vs replot 1e4",
            large.zoomReplot, small.replot, 0.0);
        const char* latency = on ? "new data to painted frame, 1e6 points, smoothing on: latency "
                                   "(wall, build on the pool included)"
                                 : "new data to painted frame, 1e6 points: latency (wall, build "
                                   "on the pool included)";
        std::printf("%-44s %10.2f %10s %9s %7s  %s\n", "latency 1e6 (wall ms)", large.latency, "-",
                    "-", "100 ms", large.latency <= 100.0 ? "ok" : "MISSED");
        std::printf("@result|plot|%s|%.1f ms|<= 100 ms|%s\n", latency, large.latency,
                    large.latency <= 100.0 ? "MET" : "MISSED");
        std::printf("%-44s %10.2f %10.2f %9s %7s  info\n", "other threads' CPU 1e6 / 8e3 (ms)",
                    large.otherCpu, raw.otherCpu, "-", "-");
        std::printf("@result|plot|%s: CPU of the other threads (build, freeing), 1e6 vs 8e3 "
                    "(%.1f vs %.1f ms)|%.2fx|-|info\n",
                    on ? "new data to painted frame, smoothing on" : "new data to painted frame",
                    large.otherCpu, raw.otherCpu, large.otherCpu / std::max(raw.otherCpu, 0.01));
    }
    return 0;
}
