#include "DemoRun.h"

#include "CandleFixture.h"

#include <QProcess>

namespace ckpt::test {

std::filesystem::path DemoRun::train(const QString& trainer, const std::filesystem::path& folder,
                                     const std::string& configText, const QStringList& extra)
{
    std::filesystem::create_directories(folder);
    const std::filesystem::path config = folder / "config.ini";
    CandleFixture::writeText(config, configText);
    QProcess p;
    p.start(trainer,
            QStringList{QStringLiteral("--config_file"), QString::fromStdString(config),
                        QStringLiteral("--output_dir"), QString::fromStdString(folder.string())} +
                extra);
    if (!p.waitForFinished(60000) || p.exitCode() != 0)
        qFatal("demo trainer failed: %s", p.readAllStandardError().constData());
    return folder / "ckpts";
}

QStringList DemoRun::launchTemplate(const QString& trainer)
{
    return {QStringLiteral("--"),
            trainer,
            QStringLiteral("--config_file"),
            QStringLiteral("{config}"),
            QStringLiteral("--output_dir"),
            QStringLiteral("{output_dir}"),
            QStringLiteral("--ckpt_restart_mode"),
            QStringLiteral("{ckpt_restart_mode}")};
}

} // namespace ckpt::test
