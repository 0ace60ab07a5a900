#include "launch/SweepQueueRunner.h"

#include "launch/LaunchSweep.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace ckpt {

SweepQueueRunner::SweepQueueRunner(std::shared_ptr<SweepQueue> queue, QObject* parent,
                                   int intervalMs)
    : QObject(parent), m_queue(std::move(queue))
{
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &SweepQueueRunner::tick);
    m_timer.start();
    QTimer::singleShot(0, this, &SweepQueueRunner::tick);
}

void SweepQueueRunner::tick()
{
    if (m_busy)
        return;
    m_busy = true;
    auto* watcher = new QFutureWatcher<bool>(this);
    connect(watcher, &QFutureWatcher<bool>::finished, this, [this, watcher] {
        watcher->deleteLater();
        m_busy = false;
        for (const std::string& m : m_queue->takeMessages())
            emit message(QString::fromStdString(m));
        if (watcher->result()) {
            m_timer.stop();
            emit finished(m_queue->allCompleted());
            deleteLater();
        }
    });
    watcher->setFuture(QtConcurrent::run([queue = m_queue] { return queue->step(); }));
}

} // namespace ckpt
