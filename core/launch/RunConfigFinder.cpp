#include "launch/RunConfigFinder.h"

#include "launch/LaunchRecord.h"
#include "layout/Layout.h"

namespace ckpt {

namespace fs = std::filesystem;

Result<std::string> RunConfigFinder::configFor(const fs::path& runRoot,
                                               const LaunchRegistry& registry,
                                               std::optional<int> epoch)
{
    std::error_code ec;
    const fs::path recordPath = LaunchRecord::pathFor(runRoot);
    std::string latest; // the config of the run's latest launch
    if (fs::exists(recordPath, ec)) {
        auto record = LaunchRecord::load(recordPath);
        if (!record)
            return record.error();
        for (auto it = record->attempts.rbegin(); it != record->attempts.rend(); ++it) {
            const LaunchPlan& plan = it->plan;
            if (plan.configFile.empty())
                continue;
            if (latest.empty())
                latest = plan.configFile;
            // A restart or fork from S trained S + 1 on; a new run, every epoch.
            const int start = plan.parent ? plan.parent->epoch : 0;
            if (!epoch || start < *epoch)
                return plan.configFile;
        }
        // Older than every launch: what the first one was edited from.
        for (const LaunchAttempt& a : record->attempts)
            if (!a.plan.configFile.empty()) {
                if (!a.plan.baseConfigFile.empty() &&
                    fs::is_regular_file(a.plan.baseConfigFile, ec))
                    return a.plan.baseConfigFile;
                break;
            }
    }
    auto external = registry.external(runRoot.string());
    if (!external)
        return external.error();
    if (*external && !(*external)->configFile.empty())
        return (*external)->configFile;
    if (const Layout* layout = layoutAt(runRoot))
        if (auto own = layout->paramsFile(runRoot))
            return own->string();
    if (!latest.empty())
        return latest;
    return Error::at(runRoot.string(),
                     "no parameter file is known for this run (it was not launched by Ckpt "
                     "Studio): name it once with --config FILE");
}

} // namespace ckpt
