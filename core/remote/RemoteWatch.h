#pragma once

#include "model/Epoch.h"
#include "remote/RemoteCkpt.h"

#include <QObject>
#include <QProcess>
#include <QTimer>

#include <memory>

namespace ckpt {

// A long-lived `ckpt watch --json` on the far side over one ssh connection,
// delivering its events as signals. A dropped or refused connection is tried
// again with exponential back-off (0.5 s doubling to 30 s, reset once a
// connection is up); failures trying again cannot fix (login refused, no
// ckpt, wrong protocol, a folder ckpt rejects) end in Failed. After a
// reconnect `resynced` says events may have been missed: the owner reads the
// runs again (RemoteCkpt::scan).
class RemoteWatch : public QObject
{
    Q_OBJECT

public:
    enum class State
    {
        Idle,
        Connecting,
        Connected,    // the far watcher has loaded the runs ("ready")
        Reconnecting, // waiting to try again; the message says why
        Failed,       // given up; the message says what to do
    };
    Q_ENUM(State)

    RemoteWatch(RemoteTarget target, RemoteOptions options, QObject* parent = nullptr);
    ~RemoteWatch() override;

    void start();
    void stop();
    State state() const { return m_state; }
    QString message() const { return m_message; }
    // Back-off bounds; tests shorten them.
    void setBackoff(int firstMs, int maxMs);
    int nextDelayMs() const { return m_delayMs; }

signals:
    void stateChanged(ckpt::RemoteWatch::State state, const QString& message);
    // Every event line: "run_found", "epoch_added", "link_changed", ... with
    // its JSON text (protocol first).
    void eventLine(const QString& kind, const QString& root, const QByteArray& json);
    void epochAdded(const QString& root, const ckpt::Epoch& epoch);
    void epochRemoved(const QString& root, int epoch);
    void linkChanged(const QString& root, const QString& link, int epoch); // -1: none
    // A connection came up again after a drop: events may have been missed.
    void resynced();

private:
    void connectNow();
    void onLine(const QByteArray& line);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void setState(State state, const QString& message);
    void retryLater(const QString& why);

    RemoteCkpt m_remote;
    std::unique_ptr<QProcess> m_process;
    QTimer m_retry;
    State m_state = State::Idle;
    QString m_message;
    QByteArray m_buffer;
    QByteArray m_stderr;
    bool m_wasConnected = false; // a connection was up before: the next one resyncs
    bool m_sawProtocol = false;
    int m_firstDelayMs = 500;
    int m_maxDelayMs = 30000;
    int m_delayMs = 500;
};

} // namespace ckpt
