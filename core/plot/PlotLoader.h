#pragma once

#include "plot/CurveReduction.h"
#include "plot/PlotModel.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <vector>

class QThreadPool;

namespace ckpt {

class JobRunner;

// What shapes a plot's curves besides the runs.
struct PlotSettings
{
    QStringList metrics;
    PlotXAxis xAxis = PlotXAxis::Epoch;
    double smoothing = 0.0;
    bool logY = false;
    bool showSuperseded = true;

    bool operator==(const PlotSettings&) const = default;
};

// Builds PlotModels off the GUI thread: the curves of every run (sorting and
// merging the segments, the gap rule, branches, smoothing), the summaries the
// decimator reduces them with, and their reduction to the window fitted to the
// data: all the work in proportion to the raw points, run on the pool. Only the
// newest load() is delivered: one overtaken by a newer load() or by cancel() is
// dropped, and freed where it was built. A model taken and later replaced goes
// back through discard() to be freed on the pool too, so that the GUI thread's
// work stays in proportion to what is drawn.
class PlotLoader final : public QObject
{
    Q_OBJECT
public:
    explicit PlotLoader(QObject* parent = nullptr, QThreadPool* pool = nullptr);
    ~PlotLoader() override;

    struct Built
    {
        PlotModel model;
        PlotSettings settings;
        // Each curve reduced to `window` (AxisFit::keys of the data) in `buckets`.
        SeriesRange window;
        int buckets = 0;
        std::vector<ReducedCurve> reduced;
    };

    // `runs` share their histories (PlotModel::Run): copying them is cheap.
    // `buckets`: of the reduction, about the plot's width in pixels.
    void load(std::vector<PlotModel::Run> runs, const PlotSettings& settings, int buckets);
    void cancel();
    // A load was started and neither delivered nor cancelled yet.
    bool busy() const;
    // What the last loaded() announced (once).
    std::unique_ptr<Built> take();
    // Frees `model` on the pool.
    void discard(std::unique_ptr<PlotModel> model);
    // Blocks until every build and discard started so far is done (tests, tools).
    void waitForAll();

    // The settings a model built from `settings` holds.
    static void configure(PlotModel& model, const PlotSettings& settings);

signals:
    // A model is ready: take() it.
    void loaded();

private:
    JobRunner* m_jobs;
    QThreadPool* m_pool;
    std::unique_ptr<Built> m_ready;
};

} // namespace ckpt
