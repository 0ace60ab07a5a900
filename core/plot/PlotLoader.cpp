#include "plot/PlotLoader.h"

#include "jobs/JobRunner.h"
#include "plot/AxisFit.h"

#include <QRunnable>
#include <QThreadPool>

#include <mutex>

namespace ckpt {

namespace {
// As in JobRunner.cpp: QThreadPool hands a task queued behind a busy thread
// over under a lock ThreadSanitizer cannot see, so the submitter holds this
// one while queueing and the task takes it first: an ordering TSan sees.
std::mutex g_handoff;
} // namespace

PlotLoader::PlotLoader(QObject* parent, QThreadPool* pool)
    : QObject(parent), m_jobs(new JobRunner(this, pool)),
      m_pool(pool ? pool : QThreadPool::globalInstance())
{}

PlotLoader::~PlotLoader()
{
    m_jobs->cancel();
    m_jobs->waitForAll();
}

void PlotLoader::configure(PlotModel& model, const PlotSettings& settings)
{
    model.setShowSuperseded(settings.showSuperseded);
    model.setOptions(settings.xAxis, settings.smoothing, settings.logY);
    if (model.metrics() != settings.metrics)
        model.setMetrics(settings.metrics);
}

void PlotLoader::load(std::vector<PlotModel::Run> runs, const PlotSettings& settings, int buckets)
{
    auto input = std::make_shared<std::vector<PlotModel::Run>>(std::move(runs));
    m_jobs->start<std::shared_ptr<Built>>(
        [input, settings, buckets](const Progress& progress) -> std::shared_ptr<Built> {
            auto built = std::make_shared<Built>();
            built->settings = settings;
            built->buckets = buckets;
            PlotModel& model = built->model;
            configure(model, settings); // no runs yet: nothing is built twice
            // Overtaken by a newer load: stop at the next curve, free it all here
            // rather than on the GUI thread.
            model.setCancelCheck([&progress] { return progress.cancelled(); });
            model.setRuns(std::move(*input));
            model.setCancelCheck({});
            if (progress.cancelled())
                return {};
            built->window = AxisFit::keys(model.keyRange(), settings.xAxis);
            for (const auto& c : model.curves()) {
                if (progress.cancelled())
                    return {};
                built->reduced.push_back(CurveReduction::reduce(
                    c.series, c.curve.kind == MetricCurve::Kind::Own, settings.smoothing > 0.0,
                    built->window.lower, built->window.upper, buckets));
            }
            if (progress.cancelled())
                return {};
            return built;
        },
        [this](std::shared_ptr<Built> built) {
            if (!built)
                return;
            if (m_ready) // never taken: replaced by a newer one
                discard(std::make_unique<PlotModel>(std::move(m_ready->model)));
            m_ready = std::make_unique<Built>(std::move(*built));
            emit loaded();
        });
}

void PlotLoader::cancel()
{
    m_jobs->cancel();
}

bool PlotLoader::busy() const
{
    return m_jobs->isRunning();
}

std::unique_ptr<PlotLoader::Built> PlotLoader::take()
{
    return std::move(m_ready);
}

void PlotLoader::discard(std::unique_ptr<PlotModel> model)
{
    if (!model)
        return;
    // A runnable owning the model alone: a lambda's copies could leave the last
    // reference with this thread, which would then free it after all.
    class Discard final : public QRunnable
    {
    public:
        explicit Discard(std::unique_ptr<PlotModel> model) : m_model(std::move(model)) {}
        void run() override
        {
            { // passed, not held: a discard meanwhile must not wait for the freeing
                std::lock_guard handoff(g_handoff);
            }
            m_model.reset();
        }

    private:
        std::unique_ptr<PlotModel> m_model;
    };
    std::lock_guard handoff(g_handoff);
    m_pool->start(new Discard(std::move(model)));
}

void PlotLoader::waitForAll()
{
    m_jobs->waitForAll();
    m_pool->waitForDone();
}

} // namespace ckpt
