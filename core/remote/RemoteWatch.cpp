#include "remote/RemoteWatch.h"

#include "report/RunJsonReader.h"

#include <algorithm>

namespace ckpt {

using Json = nlohmann::ordered_json;

RemoteWatch::RemoteWatch(RemoteTarget target, RemoteOptions options, QObject* parent)
    : QObject(parent), m_remote(std::move(target), std::move(options))
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &RemoteWatch::connectNow);
}

RemoteWatch::~RemoteWatch()
{
    stop();
}

void RemoteWatch::setBackoff(int firstMs, int maxMs)
{
    m_firstDelayMs = std::max(1, firstMs);
    m_maxDelayMs = std::max(m_firstDelayMs, maxMs);
    m_delayMs = m_firstDelayMs;
}

void RemoteWatch::start()
{
    m_delayMs = m_firstDelayMs;
    m_wasConnected = false;
    connectNow();
}

void RemoteWatch::stop()
{
    m_retry.stop();
    if (m_process) {
        m_process->disconnect(this);
        // Closing the connection ends the far watch (--exit-on-eof).
        m_process->kill();
        m_process->waitForFinished(5000);
        m_process.reset();
    }
    if (m_state != State::Idle)
        setState(State::Idle, {});
}

void RemoteWatch::setState(State state, const QString& message)
{
    if (state == m_state && message == m_message)
        return;
    m_state = state;
    m_message = message;
    emit stateChanged(state, message);
}

void RemoteWatch::connectNow()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(5000);
    }
    m_buffer.clear();
    m_stderr.clear();
    m_sawProtocol = false;
    setState(m_wasConnected ? State::Reconnecting : State::Connecting,
             m_wasConnected ? QStringLiteral("reconnecting to %1")
                                  .arg(QString::fromStdString(m_remote.target().display()))
                            : QStringLiteral("connecting to %1")
                                  .arg(QString::fromStdString(m_remote.target().display())));
    m_process = std::make_unique<QProcess>();
    const QStringList cmd = m_remote.sshCommand(
        {QStringLiteral("watch"), QString::fromStdString(m_remote.target().path),
         QStringLiteral("--json"), QStringLiteral("--exit-on-eof")});
    connect(m_process.get(), &QProcess::readyReadStandardOutput, this, [this] {
        m_buffer += m_process->readAllStandardOutput();
        qsizetype nl;
        while (m_process && (nl = m_buffer.indexOf('\n')) >= 0) {
            const QByteArray line = m_buffer.left(nl);
            m_buffer.remove(0, nl + 1);
            onLine(line);
        }
    });
    connect(m_process.get(), &QProcess::readyReadStandardError, this,
            [this] { m_stderr += m_process->readAllStandardError(); });
    connect(m_process.get(), &QProcess::finished, this, &RemoteWatch::onFinished);
    connect(m_process.get(), &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            setState(State::Failed,
                     QStringLiteral("cannot run ssh: %1. Install the OpenSSH client.")
                         .arg(m_process->errorString()));
    });
    m_process->start(cmd.first(), cmd.mid(1));
}

void RemoteWatch::onLine(const QByteArray& line)
{
    const Json j = Json::parse(line.toStdString(), nullptr, false);
    if (!j.is_object())
        return;
    if (!m_sawProtocol) {
        m_sawProtocol = true;
        if (auto problem = RemoteCkpt::protocolProblem(m_remote.target(), j)) {
            m_retry.stop();
            m_process->disconnect(this);
            m_process->kill();
            m_buffer.clear();
            setState(State::Failed, QString::fromStdString(*problem));
            return;
        }
    }
    const QString kind = QString::fromStdString(j.value("event", std::string()));
    const std::string root = j.value("root", std::string());
    const QString qroot = QString::fromStdString(root);
    if (kind == QLatin1String("ready")) {
        m_delayMs = m_firstDelayMs;
        const bool again = m_wasConnected;
        m_wasConnected = true;
        setState(State::Connected, QStringLiteral("connected to %1")
                                       .arg(QString::fromStdString(m_remote.target().display())));
        if (again)
            emit resynced();
    }
    emit eventLine(kind, qroot, line);
    if (kind == QLatin1String("epoch_added") || kind == QLatin1String("epoch_changed")) {
        if (auto e = RunJsonReader::epoch(j, root))
            emit epochAdded(qroot, *e);
    } else if (kind == QLatin1String("epoch_removed")) {
        emit epochRemoved(qroot, j.value("epoch", 0));
    } else if (kind == QLatin1String("link_changed")) {
        const auto epoch = j.find("epoch");
        emit linkChanged(qroot, QString::fromStdString(j.value("link", std::string())),
                         epoch != j.end() && epoch->is_number_integer() ? epoch->get<int>() : -1);
    }
}

void RemoteWatch::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_stderr += m_process->readAllStandardError();
    auto [failure, message] = RemoteCkpt::classify(
        m_remote.target(), RemoteCkpt::ckptPlaces(m_remote.options()),
        status == QProcess::NormalExit ? exitCode : 255, m_stderr.toStdString());
    const QString text = QString::fromStdString(message);
    switch (failure) {
    case RemoteFailure::Unreachable:
    case RemoteFailure::Dropped:
    case RemoteFailure::None: // the far watch ended by itself: start it again
        retryLater(text.isEmpty() ? QStringLiteral("the watch on %1 ended")
                                        .arg(QString::fromStdString(m_remote.target().display()))
                                  : text);
        return;
    default:
        m_retry.stop();
        setState(State::Failed, text);
        return;
    }
}

void RemoteWatch::retryLater(const QString& why)
{
    setState(
        State::Reconnecting,
        QStringLiteral("%1 Trying again in %2 s.").arg(why).arg(m_delayMs / 1000.0, 0, 'f', 1));
    m_retry.start(m_delayMs);
    m_delayMs = std::min(m_delayMs * 2, m_maxDelayMs);
}

} // namespace ckpt
