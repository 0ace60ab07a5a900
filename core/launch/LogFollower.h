#pragma once

#include <QObject>
#include <QString>
#include <QThread>

#include <memory>

namespace ckpt {

class LogTailWorker;

// Streams a run's log live: polls the file on its own thread (no file I/O on
// the caller's thread) and emits what was appended. Owned by the GUI or a
// console; stop() or destruction ends the thread.
class LogFollower : public QObject
{
    Q_OBJECT

public:
    explicit LogFollower(QString path, int intervalMs = 200, QObject* parent = nullptr);
    ~LogFollower() override;

    void start();
    void stop();

signals:
    // New text (decoded as UTF-8), in file order.
    void appended(const QString& text);
    void failed(const QString& message);

private:
    QString m_path;
    int m_interval;
    QThread m_thread;
    LogTailWorker* m_worker = nullptr;
};

} // namespace ckpt
