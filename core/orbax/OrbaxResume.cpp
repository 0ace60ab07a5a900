#include "orbax/OrbaxResume.h"

#include "orbax/OrbaxLayout.h"
#include "orbax/OrbaxStepReader.h"

namespace ckpt {

namespace fs = std::filesystem;

const OrbaxResume& OrbaxResume::instance()
{
    static const OrbaxResume resume;
    return resume;
}

fs::path OrbaxResume::runFolder(const fs::path& root) const
{
    // The manager's directory is the run; a fork's new folder becomes one.
    return plain(root);
}

Result<std::vector<std::string>> OrbaxResume::check(const fs::path& epochPath, int epoch,
                                                    const Progress& progress) const
{
    if (progress.cancelled())
        return Error::at(epochPath.string(), "cancelled");
    std::vector<std::string> failures;
    const std::string name = epochPath.filename().string();
    if (OrbaxLayout::instance().isInProgressName(name)) {
        failures.push_back(epochPath.string() + " is a save in progress, not a checkpoint");
        return failures;
    }
    const auto step = OrbaxStepReader::read(epochPath.parent_path().string(), name, epoch);
    if (!step) {
        failures.push_back(epochPath.string() + " is gone: no step to restore");
        return failures;
    }
    for (const Problem& problem : step->problems)
        failures.push_back(problem.message);
    return failures;
}

std::map<std::string, std::string> OrbaxResume::values(const Run& run, const Epoch& from,
                                                       const fs::path& newRoot,
                                                       const fs::path& runFolder) const
{
    auto out = Resume::values(run, from, newRoot, runFolder);
    out["step"] = std::to_string(from.number);
    return out;
}

std::vector<std::string> OrbaxResume::requeueArguments() const
{
    return {"--restore_step", "latest"};
}

std::string OrbaxResume::exampleCommand() const
{
    return "python3 train.py --config {config} --checkpoint_dir {run_dir} --restore_step {step}";
}

} // namespace ckpt
