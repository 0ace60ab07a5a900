#include "ProcessRunner.h"

#include <QProcess>

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

} // namespace ckpt::test
