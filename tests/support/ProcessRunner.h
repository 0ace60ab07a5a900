#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <string>
#include <vector>

namespace ckpt::test {

// What a child process did. `started` is false when the program could not be
// run; `finished` is false when it also ran past the timeout (it is killed).
// exitCode is -1 unless it exited normally.
struct ProcessResult
{
    bool started = false;
    bool finished = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
    QString errorString; // QProcess's reason when not started or not finished
};

// Runs `program` to completion, feeding `input` on stdin (then closing it) and
// capturing stdout and stderr; `timeoutMs` bounds the start and the run each.
ProcessResult runProcess(const QString& program, const QStringList& arguments,
                         int timeoutMs = 60000, const QByteArray& input = {});

// The command lines of the processes running now (/proc/*/cmdline), their
// arguments joined by spaces: "is the far ckpt still running?".
std::vector<std::string> runningCommandLines();

} // namespace ckpt::test
