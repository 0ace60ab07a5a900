#include "SshServer.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>

#include <csignal>
#include <filesystem>
#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt::test {

namespace {

bool writeFile(const QString& path, const QString& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    return f.write(text.toUtf8()) == text.toUtf8().size();
}

struct ProcInfo
{
    int pid = 0;
    int parent = 0;
    std::string name;
};

// Every process: pid, parent pid and name from /proc/PID/stat ("PID (NAME) S PPID ...").
std::vector<ProcInfo> processes()
{
    std::vector<ProcInfo> out;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        QFile in(QString::fromStdString((entry.path() / "stat").string()));
        if (!in.open(QIODevice::ReadOnly))
            continue;
        const std::string text = in.readAll().toStdString();
        const auto open = text.find('(');
        const auto close = text.rfind(')');
        if (open == std::string::npos || close == std::string::npos || close + 4 > text.size())
            continue;
        out.push_back({std::atoi(name.c_str()), std::atoi(text.c_str() + close + 4),
                       text.substr(open + 1, close - open - 1)});
    }
    return out;
}

// The sshd processes below `root` (a connection's monitor and its session
// process), not the commands they run.
std::vector<int> sshdBelow(int root)
{
    const std::vector<ProcInfo> all = processes();
    std::vector<int> below{root};
    std::vector<int> sshd;
    for (std::size_t i = 0; i < below.size(); ++i)
        for (const ProcInfo& p : all)
            if (p.parent == below[i] && p.name == "sshd") {
                below.push_back(p.pid);
                sshd.push_back(p.pid);
            }
    return sshd;
}

} // namespace

int SshServer::freePort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return 0;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    socklen_t len = sizeof addr;
    int port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
        port = ntohs(addr.sin_port);
    ::close(fd);
    return port;
}

SshServer::SshServer()
{
    if (const passwd* pw = ::getpwuid(::geteuid()))
        m_user = QString::fromLocal8Bit(pw->pw_name);
    if (!m_dir.isValid()) {
        m_error = "SshServer: no temporary folder";
        return;
    }
    // A port taken between freePort() and sshd's bind is retried on another.
    for (int attempt = 0; attempt < 3; ++attempt) {
        m_error.clear();
        if (start())
            return;
    }
}

SshServer::~SshServer()
{
    if (m_sshd.state() != QProcess::NotRunning) {
        dropConnections();
        m_sshd.terminate();
        if (!m_sshd.waitForFinished(10000)) {
            m_sshd.kill();
            m_sshd.waitForFinished();
        }
    }
}

QStringList SshServer::sshCommand() const
{
    return {QStringLiteral("ssh"), QStringLiteral("-F"), configFile()};
}

bool SshServer::run(const QString& program, const QStringList& arguments)
{
    QProcess p;
    p.start(program, arguments);
    if (!p.waitForFinished(60000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        m_error = "SshServer: " + program.toStdString() + " failed: " +
                  (p.errorString() + QLatin1Char(' ') + p.readAllStandardError()).toStdString();
        return false;
    }
    return true;
}

bool SshServer::start()
{
    const QString d = m_dir.path();
    for (const char* key : {"host_key", "user_key"}) {
        const QString path = m_dir.filePath(QString::fromLatin1(key));
        QFile::remove(path);
        QFile::remove(path + QStringLiteral(".pub"));
        if (!run(QStringLiteral("ssh-keygen"),
                 {"-q", "-t", "ed25519", "-N", "", "-C", "ckpt-test", "-f", path}))
            return false;
    }
    QFile::remove(m_dir.filePath(QStringLiteral("authorized_keys")));
    if (!QFile::copy(m_dir.filePath(QStringLiteral("user_key.pub")),
                     m_dir.filePath(QStringLiteral("authorized_keys")))) {
        m_error = "SshServer: cannot write authorized_keys";
        return false;
    }
    if (::geteuid() == 0) {
        // sshd's privilege separation folder; Debian's service creates it.
        std::error_code ec;
        std::filesystem::create_directories("/run/sshd", ec);
        ::chmod("/run/sshd", 0755);
    }
    m_port = freePort();
    const QString sshdConfig = QStringLiteral("ListenAddress 127.0.0.1\n"
                                              "Port %1\n"
                                              "HostKey %2/host_key\n"
                                              "AuthorizedKeysFile %2/authorized_keys\n"
                                              "PidFile %2/sshd.pid\n"
                                              "StrictModes no\n"
                                              "UsePAM no\n"
                                              "PubkeyAuthentication yes\n"
                                              "PasswordAuthentication no\n"
                                              "KbdInteractiveAuthentication no\n"
                                              "PermitRootLogin prohibit-password\n"
                                              "AllowUsers %3\n"
                                              "MaxStartups 100\n"
                                              "MaxSessions 100\n"
                                              "LogLevel INFO\n"
                                              "Subsystem sftp internal-sftp\n")
                                   .arg(m_port)
                                   .arg(d, m_user);
    const QString sshConfig = QStringLiteral("Host %1\n"
                                             "  HostName 127.0.0.1\n"
                                             "  Port %2\n"
                                             "  User %3\n"
                                             "  IdentityFile %4/user_key\n"
                                             "  IdentitiesOnly yes\n"
                                             "  UserKnownHostsFile %4/known_hosts\n"
                                             "  GlobalKnownHostsFile /dev/null\n"
                                             "  StrictHostKeyChecking accept-new\n"
                                             "  BatchMode yes\n"
                                             "  ConnectTimeout 10\n"
                                             "  LogLevel ERROR\n")
                                  .arg(host())
                                  .arg(m_port)
                                  .arg(m_user, d);
    if (!writeFile(m_dir.filePath(QStringLiteral("sshd_config")), sshdConfig) ||
        !writeFile(configFile(), sshConfig)) {
        m_error = "SshServer: cannot write the configs";
        return false;
    }
    return listen();
}

void SshServer::stop()
{
    if (m_sshd.state() == QProcess::NotRunning)
        return;
    dropConnections();
    m_sshd.disconnect();
    m_sshd.terminate();
    if (!m_sshd.waitForFinished(10000)) {
        m_sshd.kill();
        m_sshd.waitForFinished();
    }
}

bool SshServer::resume()
{
    if (m_sshd.state() != QProcess::NotRunning)
        return true;
    m_error.clear();
    return listen();
}

bool SshServer::listen()
{
    m_sshd.setProcessChannelMode(QProcess::SeparateChannels);
    m_sshd.setReadChannel(QProcess::StandardError); // waitForReadyRead waits on its log
    m_sshd.start(QStringLiteral("/usr/sbin/sshd"),
                 {"-D", "-e", "-f", m_dir.filePath(QStringLiteral("sshd_config"))});
    if (!m_sshd.waitForStarted(30000)) {
        m_error = "SshServer: cannot start /usr/sbin/sshd (is openssh-server installed?): " +
                  m_sshd.errorString().toStdString();
        return false;
    }
    // sshd -e logs "Server listening on 127.0.0.1 port N." once it accepts.
    QByteArray log;
    const QDeadlineTimer deadline(30000);
    while (!log.contains("Server listening")) {
        if (m_sshd.state() == QProcess::NotRunning || deadline.hasExpired() ||
            !m_sshd.waitForReadyRead(static_cast<int>(deadline.remainingTime()))) {
            log += m_sshd.readAllStandardError();
            if (m_sshd.state() != QProcess::NotRunning) {
                m_sshd.kill();
                m_sshd.waitForFinished();
            }
            m_error = "SshServer: sshd did not start listening: " + log.toStdString();
            return false;
        }
        log += m_sshd.readAllStandardError();
    }
    // Its later log lines are not needed: drained so that they never fill the pipe.
    QObject::connect(&m_sshd, &QProcess::readyReadStandardError,
                     [this] { m_sshd.readAllStandardError(); });
    return true;
}

std::vector<int> SshServer::connectionPids() const
{
    std::vector<int> pids;
    const auto listener = static_cast<int>(m_sshd.processId());
    if (listener <= 0)
        return pids;
    for (const ProcInfo& p : processes())
        if (p.parent == listener)
            pids.push_back(p.pid);
    return pids;
}

int SshServer::dropConnections()
{
    const std::vector<int> connections = connectionPids();
    const auto listener = static_cast<int>(m_sshd.processId());
    if (listener > 0)
        for (const int pid : sshdBelow(listener))
            ::kill(pid, SIGKILL);
    return static_cast<int>(connections.size());
}

} // namespace ckpt::test
