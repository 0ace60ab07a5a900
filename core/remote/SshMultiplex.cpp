#include "remote/SshMultiplex.h"

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>

#include <map>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace {

// sockaddr_un's sun_path holds 108 bytes with the NUL; ssh first binds
// "<path>.<16 random characters>" and renames it into place.
constexpr int kSocketPathMax = 108 - 1 - 17;

// A folder of ours that no one else can reach into: a directory (not a
// link), owned by us, no group or other bits.
bool privateDir(const QByteArray& path)
{
    struct stat st
    {};
    return ::lstat(path.constData(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() &&
           (st.st_mode & 077) == 0;
}

// Usable in `-o ControlPath=...`: ssh splits option values at white space and
// expands % tokens.
bool plainPath(const QString& path)
{
    static const QRegularExpression odd(QStringLiteral("[\\s%\"'\\\\]"));
    return path.startsWith(QLatin1Char('/')) && !path.contains(odd);
}

std::string keywordOf(const QString& line)
{
    const QString t = line.trimmed();
    qsizetype end = 0;
    while (end < t.size() && !t[end].isSpace() && t[end] != QLatin1Char('='))
        ++end;
    return t.left(end).toLower().toStdString();
}

// Does a config file ssh read for this host set ControlMaster or ControlPath
// where it applies: before its first Host/Match, in a Host block ssh applied
// (`applied` holds the line numbers of those), or in any Match block (not
// evaluated here: counted as applying, so the user's choice is kept).
bool setsMultiplexing(const QString& file, const std::set<int>& applied)
{
    QFile in(file);
    if (!in.open(QIODevice::ReadOnly) || in.size() > (1 << 20))
        return false;
    bool applies = true;
    int number = 0;
    for (const QByteArray& raw : in.readAll().split('\n')) {
        ++number;
        const std::string key = keywordOf(QString::fromUtf8(raw));
        if (key == "host")
            applies = applied.count(number) > 0;
        else if (key == "match")
            applies = true;
        else if (applies && (key == "controlmaster" || key == "controlpath"))
            return true;
    }
    return false;
}

QProcess::ExitStatus runFor(QProcess& p, const QString& program, const QStringList& arguments,
                            int timeoutMs, bool& finished)
{
    p.start(program, arguments);
    finished = p.waitForStarted(timeoutMs) && p.waitForFinished(timeoutMs);
    if (!finished && p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished();
    }
    return p.exitStatus();
}

} // namespace

QStringList SshMultiplex::destinationArgs(const RemoteTarget& target)
{
    QStringList args;
    if (target.port)
        args << QStringLiteral("-p") << QString::number(*target.port);
    args << QStringLiteral("--") << QString::fromStdString(target.destination());
    return args;
}

QString SshMultiplex::runtimeDir()
{
    const QByteArray xdg = qgetenv("XDG_RUNTIME_DIR");
    if (!xdg.isEmpty() && privateDir(xdg) && plainPath(QString::fromLocal8Bit(xdg)) &&
        xdg.size() + 11 + 40 <= kSocketPathMax)
        return QString::fromLocal8Bit(xdg);
    const QByteArray own = "/tmp/ckpt-ssh-" + QByteArray::number(::geteuid());
    if (::mkdir(own.constData(), 0700) != 0 && errno != EEXIST)
        return {};
    return privateDir(own) ? QString::fromLatin1(own) : QString();
}

SshMultiplex::Plan SshMultiplex::plan(const QStringList& ssh, const RemoteTarget& target)
{
    static std::mutex mutex;
    static std::map<QString, Plan> plans;
    const QString key = ssh.join(QChar(0x1f)) + QChar(0x1f) +
                        QString::fromStdString(target.destination()) + QLatin1Char(':') +
                        QString::number(target.port.value_or(0));
    {
        const std::lock_guard lock(mutex);
        if (const auto it = plans.find(key); it != plans.end())
            return it->second;
    }
    Plan plan;
    const auto remember = [&] {
        const std::lock_guard lock(mutex);
        return plans.emplace(key, plan).first->second;
    };
    for (const QString& option : ssh)
        if (option.contains(QLatin1String("ControlMaster"), Qt::CaseInsensitive) ||
            option.contains(QLatin1String("ControlPath"), Qt::CaseInsensitive)) {
            plan.reason = QStringLiteral("the ssh command sets %1").arg(option);
            return remember();
        }
    // What ssh makes of the user's config for this host, and (-vv) which
    // files and Host blocks it read to get there.
    QProcess p;
    bool finished = false;
    runFor(p, ssh.first(),
           ssh.mid(1) + QStringList{QStringLiteral("-G"), QStringLiteral("-vv")} +
               destinationArgs(target),
           10000, finished);
    if (!finished || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        plan.reason = QStringLiteral("ssh -G failed: %1")
                          .arg(QString::fromLocal8Bit(p.readAllStandardError()).trimmed());
        return remember();
    }
    std::map<std::string, QString> effective;
    for (const QByteArray& line : p.readAllStandardOutput().split('\n')) {
        const qsizetype space = line.indexOf(' ');
        if (space > 0)
            effective[line.left(space).toStdString()] = QString::fromUtf8(line.mid(space + 1));
    }
    // (ssh -G leaves out a ControlPath that is not set.)
    if (effective.try_emplace("controlmaster", QStringLiteral("false")).first->second !=
            QLatin1String("false") ||
        effective.try_emplace("controlpath", QStringLiteral("none")).first->second !=
            QLatin1String("none")) {
        plan.reason = QStringLiteral("the ssh config sets ControlMaster %1, ControlPath %2")
                          .arg(effective["controlmaster"], effective["controlpath"]);
        return remember();
    }
    // "ControlMaster no" reads as the default: look in the config text.
    static const QRegularExpression reading(
        QStringLiteral("^debug1: Reading configuration data (.+)$"));
    static const QRegularExpression applying(
        QStringLiteral("^debug1: (.+) line (\\d+): Applying options for "));
    std::vector<QString> files;
    std::map<QString, std::set<int>> applied;
    for (const QByteArray& raw : p.readAllStandardError().split('\n')) {
        const QString line = QString::fromUtf8(raw).trimmed();
        if (const auto m = reading.match(line); m.hasMatch())
            files.push_back(m.captured(1));
        else if (const auto a = applying.match(line); a.hasMatch())
            applied[a.captured(1)].insert(a.captured(2).toInt());
    }
    for (const QString& file : files)
        if (setsMultiplexing(file, applied[file])) {
            plan.reason = QStringLiteral("%1 sets ControlMaster or ControlPath").arg(file);
            return remember();
        }
    const QString dir = runtimeDir();
    if (dir.isEmpty()) {
        plan.reason = QStringLiteral("no private runtime folder for the ssh socket");
        return remember();
    }
    // Named like ssh's %C (user, host, port, jump host), plus our ssh options
    // (another -F config may reach the same address differently).
    const QByteArray identity = (effective["user"] + QLatin1Char('@') + effective["hostname"] +
                                 QLatin1Char(':') + effective["port"] + QLatin1Char('/') +
                                 effective["proxyjump"] + QChar(0x1f) + ssh.join(QChar(0x1f)))
                                    .toUtf8();
    QString hash =
        QString::fromLatin1(QCryptographicHash::hash(identity, QCryptographicHash::Sha1).toHex());
    QString path = dir + QStringLiteral("/ckpt-ssh-") + hash;
    if (path.toLocal8Bit().size() > kSocketPathMax)
        path = dir + QStringLiteral("/ckpt-ssh-") + hash.left(16);
    if (path.toLocal8Bit().size() > kSocketPathMax || !plainPath(path)) {
        plan.reason = QStringLiteral("the socket path %1 is too long or not plain").arg(path);
        return remember();
    }
    plan.controlPath = path;
    plan.options = {QStringLiteral("-o"), QStringLiteral("ControlMaster=auto"),
                    QStringLiteral("-o"), QStringLiteral("ControlPath=") + path,
                    QStringLiteral("-o"), QStringLiteral("ControlPersist=%1").arg(kPersistSeconds)};
    return remember();
}

SshMultiplex::Master SshMultiplex::check(const QStringList& ssh, const RemoteTarget& target,
                                         const Plan& plan, int timeoutMs)
{
    if (plan.controlPath.isEmpty())
        return Master::Absent;
    struct stat st
    {};
    if (::lstat(QFile::encodeName(plan.controlPath).constData(), &st) != 0)
        return Master::Absent;
    QProcess p;
    bool finished = false;
    runFor(p, ssh.first(),
           ssh.mid(1) +
               QStringList{QStringLiteral("-o"), QStringLiteral("ControlPath=") + plan.controlPath,
                           QStringLiteral("-O"), QStringLiteral("check")} +
               destinationArgs(target),
           timeoutMs, finished);
    if (!finished)
        return Master::Wedged;
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? Master::Alive
                                                                       : Master::Refused;
}

QStringList SshMultiplex::optionsFor(const QStringList& ssh, const RemoteTarget& target,
                                     const Plan& plan, int checkTimeoutMs)
{
    if (plan.controlPath.isEmpty() || check(ssh, target, plan, checkTimeoutMs) != Master::Wedged)
        return plan.options;
    // The hung master keeps its connection; the next call opens a new one.
    ::unlink(QFile::encodeName(plan.controlPath).constData());
    return {QStringLiteral("-o"), QStringLiteral("ControlMaster=no"), QStringLiteral("-o"),
            QStringLiteral("ControlPath=none")};
}

int SshMultiplex::masterPid(const QStringList& ssh, const RemoteTarget& target, const Plan& plan)
{
    if (plan.controlPath.isEmpty())
        return 0;
    QProcess p;
    bool finished = false;
    runFor(p, ssh.first(),
           ssh.mid(1) +
               QStringList{QStringLiteral("-o"), QStringLiteral("ControlPath=") + plan.controlPath,
                           QStringLiteral("-O"), QStringLiteral("check")} +
               destinationArgs(target),
           5000, finished);
    static const QRegularExpression pid(QStringLiteral("Master running \\(pid=(\\d+)\\)"));
    const auto m = pid.match(QString::fromLocal8Bit(p.readAllStandardError()));
    return finished && m.hasMatch() ? m.captured(1).toInt() : 0;
}

} // namespace ckpt
