#include "CliRunner.h"

#include <QProcess>

namespace ckpt::test {

QString cliPath()
{
    return QStringLiteral(CKPT_CLI_PATH);
}

CliResult runCli(const QStringList& arguments)
{
    QProcess p;
    p.start(cliPath(), arguments);
    CliResult r;
    if (!p.waitForFinished(60000)) {
        r.err = "ckpt did not finish: " + p.errorString().toUtf8();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

} // namespace ckpt::test
