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

CliResult runCli(const QStringList& arguments);
QString cliPath();

} // namespace ckpt::test
