#include "launch/RunConfigFinder.h"

#include "launch/LaunchRecord.h"
#include "layout/Layout.h"

namespace ckpt {

namespace fs = std::filesystem;

Result<std::string> RunConfigFinder::configFor(const fs::path& runRoot,
                                               const LaunchRegistry& registry)
{
    std::error_code ec;
    const fs::path recordPath = LaunchRecord::pathFor(runRoot);
    if (fs::exists(recordPath, ec)) {
        auto record = LaunchRecord::load(recordPath);
        if (!record)
            return record.error();
        for (auto it = record->attempts.rbegin(); it != record->attempts.rend(); ++it)
            if (!it->plan.configFile.empty())
                return it->plan.configFile;
    }
    auto external = registry.external(runRoot.string());
    if (!external)
        return external.error();
    if (*external && !(*external)->configFile.empty())
        return (*external)->configFile;
    if (const Layout* layout = layoutAt(runRoot))
        if (auto own = layout->paramsFile(runRoot))
            return own->string();
    return Error::at(runRoot.string(),
                     "no parameter file is known for this run (it was not launched by Ckpt "
                     "Studio): name it once with --config FILE");
}

} // namespace ckpt
