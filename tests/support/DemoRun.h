#pragma once

#include "launch/LaunchPrep.h"

#include <QString>
#include <QStringList>

#include <filesystem>
#include <map>
#include <string>

namespace ckpt::test {

// Trains a real run of the demo trainer (`trainer`, its path) in `folder` with
// `configText` written to `config`; returns the run's checkpoint root
// (folder/ckpts). `extra` arguments follow the config and output folder. A
// trainer that fails stops the test program.
std::filesystem::path trainDemoRun(const QString& trainer, const std::filesystem::path& folder,
                                   const std::string& config, const std::string& configText,
                                   const QStringList& extra = {});

// "-- TRAINER --config_file {config} --output_dir {output_dir}
// --ckpt_restart_mode {ckpt_restart_mode}": the template after `ckpt launch`'s options.
QStringList demoLaunchTemplate(const QString& trainer);

// A restart or fork of `root` from epoch `from` with the demo trainer's template.
PrepRequest demoPrepRequest(const QString& trainer, const std::filesystem::path& root,
                            LaunchPlan::Mode mode, int from, const std::string& config);

// Every file below `dir` (relative path -> content; links by their text), to
// prove a tree byte-identical before and after.
std::map<std::string, std::string> treeSnapshot(const std::filesystem::path& dir);

} // namespace ckpt::test
