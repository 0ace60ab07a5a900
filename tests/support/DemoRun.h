#pragma once

#include <QStringList>

#include <filesystem>
#include <string>

namespace ckpt::test {

// Real runs of the demo trainer (ckpt-demo-train of this build, whose path the
// tests get as CKPT_DEMO_TRAIN) for the launcher's tests.
struct DemoRun
{
    // Writes `configText` to <folder>/config.ini and trains there (checkpoints
    // in <folder>/ckpts); `extra` arguments follow the config and output folder.
    // Stops the test program (qFatal, with the trainer's stderr) when it fails.
    // Returns the checkpoint root.
    static std::filesystem::path train(const QString& trainer, const std::filesystem::path& folder,
                                       const std::string& configText,
                                       const QStringList& extra = {});

    // "-- TRAINER --config_file {config} --output_dir {output_dir}
    // --ckpt_restart_mode {ckpt_restart_mode}": the command template after
    // `ckpt launch`'s options.
    static QStringList launchTemplate(const QString& trainer);
};

} // namespace ckpt::test
