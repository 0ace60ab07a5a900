#include "CliRunner.h"

#include <ProcessRunner.h>

namespace ckpt::test {

QString cliPath()
{
    return QStringLiteral(CKPT_CLI_PATH);
}

CliResult runCli(const QStringList& arguments, int timeoutMs)
{
    const ProcessResult p = runProcess(cliPath(), arguments, timeoutMs);
    CliResult r;
    if (!p.finished) {
        r.err = "ckpt did not finish: " + p.errorString.toUtf8();
        return r;
    }
    r.exitCode = p.exitCode;
    r.out = p.out;
    r.err = p.err;
    return r;
}

} // namespace ckpt::test
