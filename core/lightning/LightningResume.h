#pragma once

#include "layout/Resume.h"

namespace ckpt {

// How PyTorch Lightning runs resume: `trainer.fit(model, ckpt_path=PATH)`
// (LightningCLI: `fit --config CFG --ckpt_path PATH`) with a `.ckpt` file a
// ModelCheckpoint wrote. The trainer works in the folder above the logger's
// (`<run folder>/lightning_logs/version_N`), and a resumed run goes on in the
// logger's next version folder, as Lightning does: a restart of version_N is
// the run's next segment, version_<newest + 1>, and leaves version_N as it is.
// A bare folder of .ckpt files restarts in place (the later files go aside).
// A fork holds the chosen .ckpt and metrics.csv cut at its epoch.
//
// Placeholders: {checkpoint}, {epoch} (Lightning's, 0-based), {initial_epoch}
// (epochs done: epoch + 1), {step} (global_step) and {version} (the logger
// version the trainer is to write: pass it as the logger's `version`).
class LightningResume final : public Resume
{
public:
    std::filesystem::path runFolder(const std::filesystem::path& root) const override;
    Result<std::vector<std::string>> check(const std::filesystem::path& epochPath, int epoch,
                                           const Progress& progress) const override;
    std::map<std::string, std::string>
    values(const Run& run, const Epoch& from, const std::filesystem::path& newRoot,
           const std::filesystem::path& runFolder) const override;
    std::vector<std::string> requeueArguments() const override;
    std::string exampleCommand() const override;
    std::vector<std::string> editNotes(const std::vector<std::string>& keys) const override;
    std::optional<std::filesystem::path>
    restartSegment(const std::filesystem::path& root) const override;
    std::string epochLabel(const Epoch& epoch) const override;
    std::optional<std::string> cutSource(const RunSource& source, const std::string& text,
                                         const Epoch& from) const override;

    // metrics.csv (Lightning's CSVLogger) cut to the rows of epochs up to
    // `epoch` (0-based, its `epoch` column); rows without one are kept up to
    // the first row past it.
    static std::string cutMetricsCsv(const std::string& text, int epoch);

    static const LightningResume& instance();
};

} // namespace ckpt
