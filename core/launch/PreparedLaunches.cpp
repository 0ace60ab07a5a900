#include "launch/PreparedLaunches.h"

#include "io/AtomicFile.h"
#include "launch/LaunchRegistry.h"

#include <algorithm>

namespace ckpt {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

PreparedLaunches::PreparedLaunches(fs::path file)
    : m_file(file.empty() ? LaunchRegistry::defaultPath().parent_path() / "prepared-launches.json"
                          : std::move(file))
{}

Json PreparedLaunches::toJson(const PreparedLaunch& p)
{
    Json moved = Json::array();
    for (const auto& [dir, aside] : p.applied.moved)
        moved.push_back({dir, aside});
    return Json{{"mode", LaunchPlan::modeName(p.plan.mode)},
                {"parent", p.parentRoot.string()},
                {"from", p.plan.parent ? p.plan.parent->epoch : 0},
                {"run", p.plan.runRoot},
                {"run_folder", p.runFolder.string()},
                {"superseded", p.superseded},
                {"superseded_dir", p.supersededDir.string()},
                {"applied", p.applied.time},
                {"config", p.applied.config},
                {"moved", moved},
                {"superseded_made", p.applied.supersededMade},
                {"configs_dir_made", p.applied.configsDirMade},
                {"journal_ids", p.applied.journalIds},
                {"fork_folder_made", p.applied.forkFolderMade},
                {"segment", p.segment},
                {"segment_made", p.applied.segmentMade}};
}

Result<PreparedLaunch> PreparedLaunches::fromJson(const Json& j)
{
    try {
        PreparedLaunch p;
        const auto mode = LaunchPlan::modeFromName(j.at("mode").get<std::string>());
        if (!mode)
            return Error::at({}, "unknown mode");
        p.plan.mode = *mode;
        p.parentRoot = j.at("parent").get<std::string>();
        p.plan.parent =
            LaunchParent{p.parentRoot.string(), j.at("from").get<int>(), {}, {}, std::nullopt};
        p.plan.runRoot = j.at("run").get<std::string>();
        p.runFolder = j.at("run_folder").get<std::string>();
        p.superseded = j.at("superseded").get<std::vector<int>>();
        p.supersededDir = j.at("superseded_dir").get<std::string>();
        p.applied.done = true;
        p.applied.time = j.at("applied").get<std::string>();
        p.applied.config = j.at("config").get<std::string>();
        for (const auto& m : j.at("moved"))
            p.applied.moved.emplace_back(m.at(0).get<std::string>(), m.at(1).get<std::string>());
        p.applied.supersededMade = j.at("superseded_made").get<bool>();
        p.applied.configsDirMade = j.value("configs_dir_made", false);
        p.applied.journalIds = j.at("journal_ids").get<std::vector<std::string>>();
        p.applied.forkFolderMade = j.at("fork_folder_made").get<bool>();
        p.segment = j.value("segment", false);
        p.applied.segmentMade = j.value("segment_made", false);
        return p;
    } catch (const nlohmann::json::exception& e) {
        return Error::at({}, std::string("unreadable entry: ") + e.what());
    }
}

Result<std::vector<PreparedLaunch>> PreparedLaunches::read() const
{
    std::vector<PreparedLaunch> all;
    std::error_code ec;
    if (!fs::exists(m_file, ec))
        return all;
    auto text = readFile(m_file);
    if (!text)
        return text.error();
    const Json j = Json::parse(*text, nullptr, false);
    if (j.is_discarded() || !j.is_array())
        return Error::at(m_file.string(), "not a JSON list of prepared launches");
    for (const Json& entry : j) {
        auto p = fromJson(entry);
        if (!p)
            return Error::at(m_file.string(), p.error().message);
        all.push_back(std::move(*p));
    }
    return all;
}

Status PreparedLaunches::write(const std::vector<PreparedLaunch>& all) const
{
    Json j = Json::array();
    for (const PreparedLaunch& p : all)
        j.push_back(toJson(p));
    std::error_code ec;
    fs::create_directories(m_file.parent_path(), ec);
    return writeFileAtomically(m_file, j.dump(2) + "\n");
}

Status PreparedLaunches::add(const PreparedLaunch& prepared) const
{
    auto all = read();
    if (!all)
        return all.error();
    std::erase_if(*all,
                  [&](const PreparedLaunch& p) { return p.plan.runRoot == prepared.plan.runRoot; });
    all->push_back(prepared);
    return write(*all);
}

Status PreparedLaunches::remove(const std::string& runRoot) const
{
    auto all = read();
    if (!all)
        return all.error();
    const auto before = all->size();
    std::erase_if(*all, [&](const PreparedLaunch& p) { return p.plan.runRoot == runRoot; });
    return all->size() == before ? Status{} : write(*all);
}

Result<std::optional<PreparedLaunch>> PreparedLaunches::latestFor(const fs::path& run) const
{
    auto all = read();
    if (!all)
        return all.error();
    std::error_code ec;
    fs::path asked = fs::absolute(run, ec).lexically_normal();
    if (asked.filename().empty())
        asked = asked.parent_path(); // "RUN/" as "RUN"
    auto matches = [&](const fs::path& root) {
        const fs::path r = root.lexically_normal();
        return r == asked || LaunchPrep::runFolderOf(r) == asked;
    };
    for (auto it = all->rbegin(); it != all->rend(); ++it)
        if (matches(it->parentRoot) || matches(it->plan.runRoot))
            return std::optional<PreparedLaunch>(*it);
    return std::optional<PreparedLaunch>();
}

} // namespace ckpt
