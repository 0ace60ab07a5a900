#include "launch/LogFollower.h"

#include "launch/LogTailWorker.h"

namespace ckpt {

LogFollower::LogFollower(QString path, int intervalMs, QObject* parent)
    : QObject(parent), m_path(std::move(path)), m_interval(intervalMs)
{}

LogFollower::~LogFollower()
{
    stop();
}

void LogFollower::start()
{
    if (m_worker)
        return;
    m_worker = new LogTailWorker(m_path, m_interval, m_backlog);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(&m_thread, &QThread::started, m_worker, &LogTailWorker::begin);
    connect(m_worker, &LogTailWorker::appended, this, &LogFollower::appended);
    connect(m_worker, &LogTailWorker::failed, this, &LogFollower::failed);
    connect(m_worker, &LogTailWorker::skipped, this, &LogFollower::skipped);
    m_thread.start();
}

void LogFollower::stop()
{
    if (!m_worker)
        return;
    m_thread.quit();
    m_thread.wait();
    m_worker = nullptr;
}

} // namespace ckpt
