#pragma once

#include <QFileInfo>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

#include <ProcessRunner.h>

namespace ckpt::test {

// Runs a Python snippet with the system interpreter (Debian's python3 carries
// h5py and numpy; a pyenv shim earlier in PATH may not).
struct PythonResult
{
    bool started = false;
    int exitCode = -1;
    QString out;
    QString err;
};

inline QString systemPython()
{
    if (QFileInfo::exists("/usr/bin/python3"))
        return "/usr/bin/python3";
    return QStandardPaths::findExecutable("python3");
}

inline PythonResult runPython(const QString& code, const QStringList& args = {},
                              const QByteArray& input = {})
{
    PythonResult r;
    const QString python = systemPython();
    if (python.isEmpty())
        return r;
    const ProcessResult p = runProcess(python, QStringList{"-c", code} + args, 60000, input);
    r.started = p.started;
    r.exitCode = p.exitCode;
    r.out = QString::fromUtf8(p.out);
    r.err = QString::fromUtf8(p.err);
    return r;
}

} // namespace ckpt::test
