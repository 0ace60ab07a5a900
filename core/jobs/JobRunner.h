#pragma once

#include "common/Progress.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

class QThreadPool;

namespace ckpt {

// Runs one synchronous core function at a time on a thread pool for a widget
// (the requester owns the runner, the runner owns the QFutureWatchers). A new
// start() cancels the previous job and bumps the generation, so a result that
// arrives late is dropped instead of overwriting newer data. Progress reaches
// the GUI thread queued and throttled to a few updates a second; the result
// callback runs on the runner's thread. The destructor cancels and waits.
class JobRunner final : public QObject
{
    Q_OBJECT
public:
    explicit JobRunner(QObject* parent = nullptr, QThreadPool* pool = nullptr);
    ~JobRunner() override;

    // `work` runs on the pool with a Progress carrying this job's cancel flag;
    // `done` gets its result on this object's thread unless a newer job started
    // or cancel() was called meanwhile. Returns the job's generation.
    template <typename T>
    quint64 start(std::function<T(const Progress&)> work, std::function<void(T)> done)
    {
        auto result = std::make_shared<std::optional<T>>();
        return launch([work = std::move(work),
                       result](const Progress& progress) { result->emplace(work(progress)); },
                      [done = std::move(done), result] {
                          if (result->has_value())
                              done(std::move(**result));
                      });
    }

    // Cancels the running job; its result will be dropped.
    void cancel();
    bool isRunning() const { return m_running; }
    quint64 generation() const { return m_generation; }
    // Minimum time between two progress() signals (the last one always comes).
    void setProgressInterval(int ms) { m_intervalMs = ms; }

    // Blocks until every job started so far has finished (tests, shutdown).
    void waitForAll();

signals:
    void started(quint64 generation);
    void progress(quint64 done, quint64 total, const QString& current);
    // After `done` ran, or after a cancelled job's work returned.
    void finished(quint64 generation, bool cancelled);
    void runningChanged(bool running);

private:
    quint64 launch(std::function<void(const Progress&)> work, std::function<void()> deliver);
    void setRunning(bool running);

    QThreadPool* m_pool;
    quint64 m_generation = 0;
    std::shared_ptr<std::atomic_bool> m_cancel;
    bool m_running = false;
    int m_intervalMs = 100;
};

} // namespace ckpt
