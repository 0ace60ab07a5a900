#pragma once

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <string>
#include <vector>

namespace ckpt::test {

// A real OpenSSH server for the remote tests: `/usr/sbin/sshd -D -e` on a free
// loopback port, with a throwaway host key, user key, authorized_keys and
// sshd_config in a QTemporaryDir, plus the matching client config for
// `ssh -F configFile() host()` (its own known_hosts, BatchMode, the user key).
// As root (CI) it runs privilege-separated and accepts root; as another user
// it runs as that user and accepts only that user. The constructor waits until
// sshd says it listens.
//
//     SshServer server;
//     QVERIFY2(server.ok(), server.error().c_str());
//     QProcess::execute("ssh", {"-F", server.configFile(), server.host(), "--", "true"});
class SshServer
{
public:
    SshServer();
    ~SshServer();
    SshServer(const SshServer&) = delete;
    SshServer& operator=(const SshServer&) = delete;

    bool ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }

    QString configFile() const { return m_dir.filePath(QStringLiteral("ssh_config")); }
    // The Host alias configFile() defines (127.0.0.1, port(), user()).
    QString host() const { return QStringLiteral("ckpt-test"); }
    int port() const { return m_port; }
    QString user() const { return m_user; }
    QString dir() const { return m_dir.path(); }
    // The ssh command a client runs: {"ssh", "-F", configFile()}.
    QStringList sshCommand() const;

    // Drops every open connection (kills sshd's per-connection processes) while
    // the listener stays: what a client sees when the network goes away.
    // Returns how many connections were dropped.
    int dropConnections();
    // Stops the server (connections dropped, nobody listens on port()): what a
    // client sees when the host goes down. resume() listens again on the same
    // port with the same keys.
    void stop();
    bool resume();
    // The pids of sshd's per-connection processes now.
    std::vector<int> connectionPids() const;

    // A port nobody listens on (for "host unreachable" tests).
    static int freePort();

private:
    bool start();
    bool listen();
    bool run(const QString& program, const QStringList& arguments);

    QTemporaryDir m_dir;
    QProcess m_sshd;
    int m_port = 0;
    QString m_user;
    std::string m_error;
};

} // namespace ckpt::test
