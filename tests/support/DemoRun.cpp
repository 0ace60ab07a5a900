#include "DemoRun.h"

#include "CandleFixture.h"
#include "candle/CandleResume.h"
#include "launch/CommandTemplate.h"

#include <QProcess>

namespace ckpt::test {

namespace fs = std::filesystem;

fs::path trainDemoRun(const QString& trainer, const fs::path& folder, const std::string& config,
                      const std::string& configText, const QStringList& extra)
{
    fs::create_directories(folder);
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

QStringList demoLaunchTemplate(const QString& trainer)
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

PrepRequest demoPrepRequest(const QString& trainer, const fs::path& root, LaunchPlan::Mode mode,
                            int from, const std::string& config)
{
    PrepRequest r;
    r.runRoot = root;
    r.fromEpoch = from;
    r.mode = mode;
    r.configFile = config;
    r.commandTemplate = CandleResume::demoTrainerCommand(trainer.toStdString());
    return r;
}

std::map<std::string, std::string> treeSnapshot(const fs::path& dir)
{
    std::map<std::string, std::string> out;
    for (const auto& e : fs::recursive_directory_iterator(dir)) {
        const std::string rel = e.path().lexically_relative(dir).string();
        if (e.is_symlink())
            out[rel] = "-> " + fs::read_symlink(e.path()).string();
        else if (e.is_regular_file())
            out[rel] = CandleFixture::readText(e.path());
    }
    return out;
}

} // namespace ckpt::test
