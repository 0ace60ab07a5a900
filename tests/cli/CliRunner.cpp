#include "CliRunner.h"

#include <ProcessRunner.h>
#include <unistd.h>

namespace ckpt::test {

QString cliPath()
{
    return QStringLiteral(CKPT_CLI_PATH);
}

namespace {

CliResult resultOf(const ProcessResult& p)
{
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

} // namespace

CliResult runCli(const QStringList& arguments, int timeoutMs)
{
    return resultOf(runProcess(cliPath(), arguments, timeoutMs));
}

CliResult runCliAsNobody(const QStringList& arguments, int timeoutMs)
{
    if (::geteuid() != 0)
        return runCli(arguments, timeoutMs);
    const QStringList prefix{"--reuid=nobody", "--regid=nogroup", "--clear-groups", "--",
                             cliPath()};
    return resultOf(runProcess(QStringLiteral("setpriv"), prefix + arguments, timeoutMs));
}

} // namespace ckpt::test
