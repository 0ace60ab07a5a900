#pragma once

#include <QFuture>
#include <QObject>
#include <QTimer>

#include <memory>

namespace ckpt {

class SweepQueue; // LaunchSweep.h: kept out of this header (and of the moc's unity file)

// Feeds a SweepQueue from an event loop: step() on a worker thread (never
// the GUI thread) every interval until the queue is done, then deletes
// itself. Owned by something that outlives the dialog that launched the
// sweep (the main window, the application).
class SweepQueueRunner final : public QObject
{
    Q_OBJECT

public:
    SweepQueueRunner(std::shared_ptr<SweepQueue> queue, QObject* parent, int intervalMs = 500);
    // Destroyed before the queue is done (the app quits): waits for a running
    // step, then undoes the runs not started (SweepQueue::abandonQueued).
    ~SweepQueueRunner() override;

signals:
    void message(const QString& text); // "started ROOT", "ROOT: completed", ...
    void finished(bool allCompleted);

private:
    void tick();

    std::shared_ptr<SweepQueue> m_queue;
    QTimer m_timer;
    bool m_busy = false;
    QFuture<bool> m_step;
};

} // namespace ckpt
