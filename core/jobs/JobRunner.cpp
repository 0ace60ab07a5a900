#include "jobs/JobRunner.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QMutex>
#include <QThreadPool>
#include <QtConcurrent>

#include <mutex>

namespace ckpt {

namespace {
// Debian's Qt is not built with ThreadSanitizer, and QThreadPool hands a task
// queued behind a busy thread over under a QMutex that waits on a futex inside
// Qt, as the finished signal reaches this thread through Qt's event queue: TSan
// sees neither, and reports what was built for a job here and read by its work
// (or the reverse for its result) as racing. The submitter holds this lock
// while the task is queued and the task takes it first thing and last thing,
// as the delivery does: an ordering TSan can see (scripts/test.sh --tsan).
// A static std::mutex, so that its own initialisation is not published through
// the queue. It is held for a moment only.
std::mutex g_handoff;

void passHandoff()
{
    std::lock_guard lock(g_handoff);
}
} // namespace

JobRunner::JobRunner(QObject* parent, QThreadPool* pool)
    : QObject(parent), m_pool(pool ? pool : QThreadPool::globalInstance())
{}

JobRunner::~JobRunner()
{
    if (m_cancel)
        m_cancel->store(true);
    waitForAll();
}

void JobRunner::cancel()
{
    if (!m_cancel)
        return;
    m_cancel->store(true);
    ++m_generation; // whatever the cancelled job returns is stale now
    setRunning(false);
}

void JobRunner::waitForAll()
{
    for (auto* watcher : findChildren<QFutureWatcherBase*>(Qt::FindDirectChildrenOnly))
        watcher->waitForFinished();
}

void JobRunner::setRunning(bool running)
{
    if (m_running == running)
        return;
    m_running = running;
    emit runningChanged(running);
}

quint64 JobRunner::launch(std::function<void(const Progress&)> work, std::function<void()> deliver)
{
    if (m_cancel)
        m_cancel->store(true);
    m_cancel = std::make_shared<std::atomic_bool>(false);
    const quint64 generation = ++m_generation;

    // Progress is posted to this object; the throttle state lives with the job.
    struct Throttle
    {
        QMutex mutex;
        QElapsedTimer clock;
        qint64 last = -1;
    };
    auto throttle = std::make_shared<Throttle>();
    throttle->clock.start();
    const int interval = m_intervalMs;
    auto report = [this, generation, throttle, interval](const ProgressUpdate& u) {
        {
            QMutexLocker lock(&throttle->mutex);
            const qint64 now = throttle->clock.elapsed();
            const bool last = u.total > 0 && u.done >= u.total;
            if (!last && throttle->last >= 0 && now - throttle->last < interval)
                return;
            throttle->last = now;
        }
        QMetaObject::invokeMethod(
            this,
            [this, generation, done = u.done, total = u.total,
             current = QString::fromStdString(u.current)] {
                if (generation == m_generation)
                    emit progress(done, total, current);
            },
            Qt::QueuedConnection);
    };

    auto* watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcher<void>::finished, this,
            [this, watcher, generation, deliver = std::move(deliver)] {
                passHandoff();
                watcher->deleteLater();
                const bool current = generation == m_generation;
                if (current) {
                    setRunning(false);
                    deliver();
                }
                emit finished(generation, !current);
            });
    std::unique_lock queued(g_handoff);
    watcher->setFuture(QtConcurrent::run(
        m_pool, [work = std::move(work), report = std::move(report), cancel = m_cancel] {
            passHandoff();
            work(Progress(report, cancel.get()));
            passHandoff();
        }));
    queued.unlock();
    setRunning(true);
    emit started(generation);
    return generation;
}

} // namespace ckpt
