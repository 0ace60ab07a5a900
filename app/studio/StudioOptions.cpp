#include "StudioOptions.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace ckpt {

StudioOptions StudioOptions::parse(const QCoreApplication& app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("See, trust and steer training checkpoints. Opens the given folders "
                       "(any folder above CANDLE runs), else the folders of the last session, "
                       "else the bundled demo experiment."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption shot(QStringLiteral("screenshot"),
                                  QStringLiteral("Load the folders, save the window as a PNG "
                                                 "and exit."),
                                  QStringLiteral("FILE.png"));
    const QCommandLineOption size(
        QStringLiteral("size"), QStringLiteral("Window size for --screenshot (default 1400x900)."),
        QStringLiteral("WxH"));
    const QCommandLineOption dark(QStringLiteral("dark"),
                                  QStringLiteral("Use a dark palette (also CKPT_STUDIO_DARK=1)."));
    const QCommandLineOption tab(
        QStringLiteral("tab"),
        QStringLiteral("Show this tab first: epochs, problems or experiments."),
        QStringLiteral("NAME"));
    parser.addOptions({shot, size, dark, tab});
    parser.addPositionalArgument(
        QStringLiteral("DIR"),
        QStringLiteral("Folders to open: local, or on another machine as "
                       "ssh://[user@]host[:port]/path (read by `ckpt` there; CKPT_SSH_COMMAND and "
                       "CKPT_REMOTE_CKPT set the ssh command and the far ckpt)."),
        QStringLiteral("[DIR...]"));
    parser.process(app);
    StudioOptions o;
    o.folders = parser.positionalArguments();
    o.screenshot = parser.value(shot);
    o.tab = parser.value(tab).toLower();
    o.dark = parser.isSet(dark) || qEnvironmentVariableIntValue("CKPT_STUDIO_DARK") == 1;
    if (parser.isSet(size)) {
        const QStringList wh = parser.value(size).split(QLatin1Char('x'));
        if (wh.size() == 2 && wh[0].toInt() > 0 && wh[1].toInt() > 0) {
            o.width = wh[0].toInt();
            o.height = wh[1].toInt();
        }
    }
    return o;
}

QString StudioOptions::demoExperiment()
{
    QStringList candidates;
    if (qEnvironmentVariableIsSet("CKPT_DEMO_DIR"))
        candidates << qEnvironmentVariable("CKPT_DEMO_DIR");
    candidates << QStringLiteral(CKPT_DEMO_DIR);
    const QDir exe(QCoreApplication::applicationDirPath());
    candidates << exe.absoluteFilePath(QStringLiteral("../../demo-experiment"))
               << exe.absoluteFilePath(QStringLiteral("demo-experiment"));
    for (const QString& c : candidates)
        if (QFileInfo(c).isDir())
            return QDir::cleanPath(c);
    return {};
}

QString StudioOptions::demoHint()
{
    return QStringLiteral("The bundled demo experiment is missing.\nCreate it with\n"
                          "scripts/make-demo.sh %1\nor drop an experiment folder here.")
        .arg(QStringLiteral(CKPT_DEMO_DIR));
}

} // namespace ckpt
