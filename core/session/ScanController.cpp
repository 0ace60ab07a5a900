#include "session/ScanController.h"

#include "jobs/JobRunner.h"
#include "layout/Layout.h"
#include "scan/Scanner.h"

#include <QThread>

#include <set>

namespace ckpt {

namespace {
struct ScanResult
{
    QString error;
    int runCount = 0;
    Problems walkProblems;
    std::vector<std::shared_ptr<Run>> undelivered; // runs the callback did not hand over
};
} // namespace

ScanController::ScanController(QThreadPool* pool, Adopt adopt, QObject* parent)
    : QObject(parent), m_pool(pool), m_adopt(std::move(adopt))
{}

ScanController::~ScanController()
{
    cancelAll();
}

JobRunner* ScanController::runner(std::map<QString, JobRunner*>& runners, const QString& key)
{
    JobRunner*& r = runners[key];
    if (!r) {
        r = new JobRunner(this, m_pool);
        connect(r, &JobRunner::runningChanged, this, &ScanController::busyChanged);
    }
    return r;
}

bool ScanController::isBusy() const
{
    if (m_scans > 0)
        return true;
    for (const auto& [root, r] : m_reloaders)
        if (r->isRunning())
            return true;
    return false;
}

void ScanController::cancelAll()
{
    ++m_generation;
    m_scans = 0;
    for (auto* map : {&m_scanners, &m_reloaders})
        for (const auto& [key, r] : *map)
            r->cancel();
}

void ScanController::scan(const QString& folder)
{
    ++m_scans;
    emit scanStarted(folder);
    const quint64 generation = m_generation;
    auto delivered = std::make_shared<std::set<std::string>>();
    auto onRun = [this, folder, generation, delivered](const Run& loaded) {
        delivered->insert(loaded.root);
        auto copy = std::make_shared<Run>(loaded);
        QMetaObject::invokeMethod(
            this,
            [this, folder, generation, copy] {
                if (generation == m_generation)
                    emit runLoaded(folder, copy);
            },
            Qt::QueuedConnection);
    };
    runner(m_scanners, folder)
        ->start<std::shared_ptr<ScanResult>>(
            [folder, onRun, delivered, adopt = m_adopt](const Progress& progress) {
                // Leave a core to the GUI thread so it never waits for one.
                Scanner::Options options;
                options.threads = std::max(1, QThread::idealThreadCount() - 1);
                auto outcome = Scanner::scan(folder.toStdString(), options, progress, onRun);
                auto result = std::make_shared<ScanResult>();
                if (!outcome) {
                    result->error = QString::fromStdString(outcome.error().message);
                    return result;
                }
                result->runCount = static_cast<int>(outcome->runs.size());
                result->walkProblems = std::move(outcome->walkProblems);
                for (auto& r : outcome->runs)
                    if (!delivered->count(r.root))
                        result->undelivered.push_back(std::make_shared<Run>(r));
                if (!progress.cancelled())
                    adopt(folder, std::move(outcome->runs));
                return result;
            },
            [this, folder, generation](std::shared_ptr<ScanResult> result) {
                if (generation != m_generation)
                    return;
                for (const auto& r : result->undelivered)
                    emit runLoaded(folder, r);
                --m_scans;
                emit scanFinished(folder, result->error, result->runCount, result->walkProblems);
                if (m_scans == 0)
                    emit allScansFinished();
                emit busyChanged();
            });
}

void ScanController::reload(const QString& root, const std::string& layoutName)
{
    const quint64 generation = m_generation;
    runner(m_reloaders, root)
        ->start<std::shared_ptr<Run>>(
            [root, layoutName](const Progress&) -> std::shared_ptr<Run> {
                const Layout* layout = findLayout(layoutName);
                if (!layout)
                    return nullptr;
                return std::make_shared<Run>(layout->loadRun(root.toStdString()));
            },
            [this, root, generation](std::shared_ptr<Run> run) {
                if (run && generation == m_generation)
                    emit runReloaded(root, run);
            });
}

} // namespace ckpt
