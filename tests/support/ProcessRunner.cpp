#include "ProcessRunner.h"

#include <QFile>
#include <QProcess>

#include <filesystem>

namespace ckpt::test {

ProcessResult runProcess(const QString& program, const QStringList& arguments, int timeoutMs,
                         const QByteArray& input)
{
    ProcessResult r;
    QProcess p;
    p.start(program, arguments);
    if (!p.waitForStarted(timeoutMs)) {
        r.errorString = p.errorString();
        return r;
    }
    r.started = true;
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeoutMs)) {
        r.errorString = p.errorString();
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.finished = true;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

std::vector<std::string> runningCommandLines()
{
    std::vector<std::string> lines;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        QFile in(QString::fromStdString((entry.path() / "cmdline").string()));
        if (!in.open(QIODevice::ReadOnly))
            continue;
        std::string text = in.readAll().toStdString();
        for (char& c : text)
            if (c == '\0')
                c = ' ';
        lines.push_back(std::move(text));
    }
    return lines;
}

} // namespace ckpt::test
