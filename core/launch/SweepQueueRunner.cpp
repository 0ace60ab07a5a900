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

SweepQueueRunner::~SweepQueueRunner()
{
    m_step.waitForFinished();
    if (!m_queue->done())
        m_queue->abandonQueued();
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
    m_step = QtConcurrent::run([queue = m_queue] { return queue->step(); });
    watcher->setFuture(m_step);
}

} // namespace ckpt
