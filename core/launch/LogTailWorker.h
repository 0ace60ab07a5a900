#pragma once

#include "launch/LogTail.h"

#include <QObject>
#include <QString>
#include <QTimer>

namespace ckpt {

// LogFollower's half that lives on the follower's thread.
class LogTailWorker : public QObject
{
    Q_OBJECT

public:
    LogTailWorker(const QString& path, int intervalMs, qint64 backlog = 0);

public slots:
    void begin();
    void poll();

signals:
    void appended(const QString& text);
    void failed(const QString& message);
    void skipped(qint64 bytes);

private:
    LogTail m_tail;
    QTimer* m_timer = nullptr;
    int m_interval;
    qint64 m_backlog;
    bool m_dropPartialLine = false;
};

} // namespace ckpt
