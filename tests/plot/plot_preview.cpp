// Renders the metric plot with a synthetic two-segment history to PNGs, in a
// light and a dark palette, for a person to look at (not a test).
// Usage: plot_preview <output dir>
//        plot_preview --runs OUT.png METRIC ROOT...   real runs overlaid, as the
//        app loads them (history, superseded branches, a fork's lead-in)
#include "SyntheticHistory.h"
#include "launch/RunBranches.h"
#include "layout/Layout.h"
#include "plot/MetricPlot.h"

#include <QApplication>
#include <QDir>
#include <QMouseEvent>
#include <QPalette>
#include <QPixmap>
#include <QStyleFactory>

namespace {

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x8e, 0xe6));
    return p;
}

void render(ckpt::MetricPlot& plot, const QString& path)
{
    plot.replotNow();
    plot.grab().save(path);
}

int renderRuns(const QStringList& args)
{
    if (args.size() < 4)
        return 2;
    std::vector<ckpt::MetricPlot::RunHistory> runs;
    for (const QString& arg : args.mid(3)) {
        const std::filesystem::path root = arg.toStdString();
        const ckpt::Layout* layout = ckpt::layoutAt(root);
        if (!layout)
            return 2;
        ckpt::MetricHistory history = ckpt::historyOf(layout->loadRun(root));
        history.branches = ckpt::RunBranches::of(root, history);
        runs.push_back({arg, QString::fromStdString(ckpt::RunBranches::displayName(root)),
                        std::move(history)});
    }
    ckpt::MetricPlot plot;
    plot.resize(900, 560);
    plot.show();
    plot.setRuns(std::move(runs));
    plot.setMetrics({args[2]});
    render(plot, args[1]);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    if (const QStringList args = QApplication::arguments().mid(1);
        !args.isEmpty() && args.front() == QStringLiteral("--runs"))
        return renderRuns(args);
    const QDir out(argc > 1 ? QString::fromLocal8Bit(argv[1]) : QDir::currentPath());

    for (const bool dark : {false, true}) {
        const QString suffix = dark ? QStringLiteral("-dark") : QStringLiteral("-light");
        ckpt::MetricPlot plot;
        if (dark)
            plot.setPalette(darkPalette());
        plot.resize(900, 560);
        plot.show();
        render(plot, out.filePath(QStringLiteral("empty") + suffix + QStringLiteral(".png")));

        auto other = ckpt::test::twoSegmentHistory(16, 16, 16);
        other.segments.resize(1);
        for (auto& row : other.rows)
            for (auto& s : row.samples)
                s.value *= 0.8;
        std::erase_if(other.rows,
                      [](const ckpt::HistoryRow& r) { return r.epoch == 10 || r.epoch == 11; });
        std::vector<ckpt::MetricPlot::RunHistory> runs;
        runs.push_back(
            {QStringLiteral("a"), QStringLiteral("run-a"), ckpt::test::twoSegmentHistory()});
        runs.push_back({QStringLiteral("b"), QStringLiteral("run-b"), other});
        plot.setRuns(std::move(runs));
        plot.setMetrics({QStringLiteral("loss"), QStringLiteral("val_loss")});
        plot.setMarkers(QStringLiteral("a"), 20, 14);
        plot.setMarkers(QStringLiteral("b"), 16, 16);
        plot.selectEpoch(QStringLiteral("a"), 14);
        render(plot, out.filePath(QStringLiteral("epochs") + suffix + QStringLiteral(".png")));

        plot.setSmoothing(0.6);
        render(plot, out.filePath(QStringLiteral("smoothed") + suffix + QStringLiteral(".png")));

        plot.setLogScale(true);
        plot.setXAxis(ckpt::MetricPlot::XAxis::WallTime);
        render(plot,
               out.filePath(QStringLiteral("walltime-log") + suffix + QStringLiteral(".png")));

        plot.setLogScale(false);
        plot.setXAxis(ckpt::MetricPlot::XAxis::RelativeTime);
        render(plot, out.filePath(QStringLiteral("relative") + suffix + QStringLiteral(".png")));

        // Hover over a point near the right edge: the label must stay inside.
        plot.setXAxis(ckpt::MetricPlot::XAxis::Epoch);
        const QPoint at = plot.pointPosition(1, 11);
        QWidget* canvas = plot.childAt(at);
        QMouseEvent move(QEvent::MouseMove, canvas->mapFrom(&plot, at),
                         canvas->mapToGlobal(canvas->mapFrom(&plot, at)), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(canvas, &move);
        render(plot, out.filePath(QStringLiteral("hover") + suffix + QStringLiteral(".png")));

        std::vector<ckpt::MetricPlot::RunHistory> big;
        big.push_back({QStringLiteral("big"), QStringLiteral("big"),
                       ckpt::test::longHistory(200'000, {"loss", "val_loss"})});
        plot.setRuns(std::move(big));
        plot.setSmoothing(0.9);
        render(plot, out.filePath(QStringLiteral("large") + suffix + QStringLiteral(".png")));
    }
    return 0;
}
