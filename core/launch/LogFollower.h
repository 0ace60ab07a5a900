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

    // Show at most the last `bytes` of what the file already holds when
    // following starts (from the next line on); 0, the default, shows all.
    // Call before start().
    void setBacklog(qint64 bytes) { m_backlog = bytes; }

    void start();
    void stop();

signals:
    // Following started `bytes` into the file: what came before is not shown.
    void skipped(qint64 bytes);
    // New text (decoded as UTF-8), in file order.
    void appended(const QString& text);
    void failed(const QString& message);

private:
    QString m_path;
    int m_interval;
    qint64 m_backlog = 0;
    QThread m_thread;
    LogTailWorker* m_worker = nullptr;
};

} // namespace ckpt
