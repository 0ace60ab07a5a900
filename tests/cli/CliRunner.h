#pragma once

#include <QByteArray>
#include <QStringList>

#include <nlohmann/json.hpp>

namespace ckpt::test {

// Runs the real `ckpt` executable of this build and captures what it printed.
struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;

    nlohmann::json json() const { return nlohmann::json::parse(out.toStdString()); }
};

// `timeoutMs` bounds the run: a ckpt that has not finished by then is killed and
// the result says so (exitCode -1).
CliResult runCli(const QStringList& arguments, int timeoutMs = 60000);
QString cliPath();
// The same, as user nobody when the test runs as root (`setpriv --reuid=nobody
// --regid=nogroup --clear-groups`: the child's real and effective ids are
// nobody's, so permission bits deny it); else as the test's own user.
CliResult runCliAsNobody(const QStringList& arguments, int timeoutMs = 60000);

} // namespace ckpt::test
