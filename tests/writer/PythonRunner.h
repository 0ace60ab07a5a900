#pragma once

#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QString>
#include <QStringList>

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
    QProcess p;
    p.start(python, QStringList{"-c", code} + args);
    if (!p.waitForStarted(10000))
        return r;
    r.started = true;
    if (!input.isEmpty())
        p.write(input);
    p.closeWriteChannel();
    p.waitForFinished(60000);
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

} // namespace ckpt::test
