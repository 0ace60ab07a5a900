#include "remote/SshConfigHosts.h"

#include <QDir>
#include <QFile>
#include <QStringList>

#include <algorithm>

namespace ckpt {

namespace {

constexpr int kMaxIncludeDepth = 16; // ssh's own limit

// The words of a config line: blanks separate them, "quoted words" may hold blanks.
QStringList words(const QString& line)
{
    QStringList out;
    QString current;
    bool quoted = false;
    bool any = false;
    for (const QChar c : line) {
        if (c == QLatin1Char('"')) {
            quoted = !quoted;
            any = true;
        } else if (!quoted && (c.isSpace() || c == QLatin1Char('='))) {
            if (any)
                out << current;
            current.clear();
            any = false;
        } else {
            current += c;
            any = true;
        }
    }
    if (any)
        out << current;
    return out;
}

void readInto(const std::filesystem::path& config, const std::filesystem::path& sshDir, int depth,
              std::vector<std::string>& hosts)
{
    if (depth > kMaxIncludeDepth)
        return;
    QFile file(QString::fromStdString(config.string()));
    // Bounded: a config is small; anything else is not one.
    if (!file.open(QIODevice::ReadOnly) || file.size() > (4 << 20))
        return;
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    for (const QString& raw : lines) {
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList w = words(line);
        if (w.size() < 2)
            continue;
        const QString key = w.first().toLower();
        if (key == QLatin1String("host")) {
            for (const QString& name : w.mid(1)) {
                if (name.contains(QLatin1Char('*')) || name.contains(QLatin1Char('?')) ||
                    name.startsWith(QLatin1Char('!')))
                    continue;
                const std::string host = name.toStdString();
                if (std::find(hosts.begin(), hosts.end(), host) == hosts.end())
                    hosts.push_back(host);
            }
        } else if (key == QLatin1String("include")) {
            for (QString pattern : w.mid(1)) {
                if (pattern.startsWith(QLatin1String("~/")))
                    pattern = QDir::homePath() + pattern.mid(1);
                else if (!pattern.startsWith(QLatin1Char('/')))
                    pattern = QString::fromStdString(sshDir.string()) + QLatin1Char('/') + pattern;
                const QFileInfo info(pattern);
                QDir dir = info.dir();
                const QStringList matches =
                    dir.entryList({info.fileName()}, QDir::Files | QDir::Readable, QDir::Name);
                for (const QString& m : matches)
                    readInto(dir.filePath(m).toStdString(), sshDir, depth + 1, hosts);
            }
        }
    }
}

} // namespace

std::vector<std::string> SshConfigHosts::read(const std::filesystem::path& config,
                                              const std::filesystem::path& sshDir)
{
    std::vector<std::string> hosts;
    readInto(config, sshDir, 0, hosts);
    return hosts;
}

std::vector<std::string> SshConfigHosts::readUserConfig()
{
    const std::filesystem::path dir = (QDir::homePath() + QStringLiteral("/.ssh")).toStdString();
    return read(dir / "config", dir);
}

} // namespace ckpt
