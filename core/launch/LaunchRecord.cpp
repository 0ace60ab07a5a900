#include "launch/LaunchRecord.h"

#include "io/AtomicFile.h"
#include "json/LenientJson.h"

#include <QDateTime>

namespace ckpt {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

constexpr RunState kStates[] = {RunState::Pending, RunState::Running, RunState::Completed,
                                RunState::Failed,  RunState::Stopped, RunState::Requeued,
                                RunState::Lost};

template <typename T> Json optionalJson(const std::optional<T>& v)
{
    return v ? Json(*v) : Json(nullptr);
}

template <typename T> std::optional<T> optionalFrom(const Json& j, const char* key)
{
    if (!j.contains(key) || j.at(key).is_null())
        return std::nullopt;
    return j.at(key).get<T>();
}

std::string str(const Json& j, const char* key)
{
    return j.contains(key) && j.at(key).is_string() ? j.at(key).get<std::string>() : std::string();
}

Json planJson(const LaunchPlan& p)
{
    Json params = Json::object();
    for (const auto& [k, v] : p.parameters)
        params[k] = v;
    Json parent = nullptr;
    if (p.parent) {
        Json changes = Json::array();
        for (const auto& c : p.parent->changes)
            changes.push_back({{"key", c.key}, {"from", c.from}, {"to", c.to}});
        parent = {{"run_root", p.parent->runRoot},
                  {"epoch", p.parent->epoch},
                  {"checksum", p.parent->checksum},
                  {"changes", std::move(changes)}};
        if (p.parent->supersededBefore)
            parent["superseded_before"] = *p.parent->supersededBefore;
    }
    Json slurm = nullptr;
    if (p.backend == LaunchPlan::Backend::Slurm) {
        const SlurmOptions& s = p.slurm;
        slurm = {{"partition", s.partition},
                 {"time", s.time},
                 {"nodes", s.nodes},
                 {"cpus_per_task", s.cpusPerTask},
                 {"gpus", s.gpus},
                 {"memory", s.memory},
                 {"account", s.account},
                 {"job_name", s.jobName},
                 {"extra", s.extraLines},
                 {"signal_grace", s.signalGraceSeconds},
                 {"requeue_arguments", s.requeueArguments},
                 {"last_link", s.lastLink}};
    }
    return {{"mode", LaunchPlan::modeName(p.mode)},
            {"backend", LaunchPlan::backendName(p.backend)},
            {"command_template", p.commandTemplate},
            {"argv", p.argv},
            {"working_dir", p.workingDir},
            {"environment", p.environment},
            {"config_file", p.configFile},
            {"base_config_file", p.baseConfigFile},
            {"parameters", params},
            {"parent", parent},
            {"slurm", slurm}};
}

LaunchPlan planFrom(const Json& j, const LaunchRecord& rec)
{
    LaunchPlan p;
    p.runRoot = rec.runRoot;
    p.name = rec.name;
    p.mode = LaunchPlan::modeFromName(str(j, "mode")).value_or(LaunchPlan::Mode::New);
    p.backend = LaunchPlan::backendFromName(str(j, "backend")).value_or(LaunchPlan::Backend::Local);
    p.commandTemplate = str(j, "command_template");
    p.argv = j.value("argv", std::vector<std::string>{});
    p.workingDir = str(j, "working_dir");
    p.environment = j.value("environment", std::map<std::string, std::string>{});
    p.configFile = str(j, "config_file");
    p.baseConfigFile = str(j, "base_config_file");
    if (j.contains("parameters") && j.at("parameters").is_object())
        for (const auto& [k, v] : j.at("parameters").items())
            p.parameters.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
    if (j.contains("parent") && j.at("parent").is_object()) {
        const Json& pj = j.at("parent");
        p.parent = LaunchParent{
            str(pj, "run_root"), pj.value("epoch", 0), str(pj, "checksum"), {}, std::nullopt};
        if (pj.contains("changes") && pj.at("changes").is_array())
            for (const Json& c : pj.at("changes"))
                if (c.is_object())
                    p.parent->changes.push_back({str(c, "key"), str(c, "from"), str(c, "to")});
        if (pj.contains("superseded_before") && pj.at("superseded_before").is_number_integer())
            p.parent->supersededBefore = pj.at("superseded_before").get<int>();
    }
    if (j.contains("slurm") && j.at("slurm").is_object()) {
        const Json& s = j.at("slurm");
        p.slurm.partition = str(s, "partition");
        p.slurm.time = str(s, "time");
        p.slurm.nodes = s.value("nodes", 1);
        p.slurm.cpusPerTask = s.value("cpus_per_task", 0);
        p.slurm.gpus = s.value("gpus", 0);
        p.slurm.memory = str(s, "memory");
        p.slurm.account = str(s, "account");
        p.slurm.jobName = str(s, "job_name");
        p.slurm.extraLines = s.value("extra", std::vector<std::string>{});
        p.slurm.signalGraceSeconds = s.value("signal_grace", 120);
        p.slurm.requeueArguments = s.value("requeue_arguments", std::vector<std::string>{});
        p.slurm.lastLink = str(s, "last_link");
    }
    return p;
}

Json segmentJson(const LaunchSegment& s)
{
    return {{"restart", s.restart},
            {"pid", s.pid ? Json(s.pid) : Json(nullptr)},
            {"pid_start_time", s.pidStartTime},
            {"supervisor_pid", s.supervisorPid ? Json(s.supervisorPid) : Json(nullptr)},
            {"host", s.host},
            {"started", s.started},
            {"ended", s.ended.empty() ? Json(nullptr) : Json(s.ended)},
            {"exit_status", optionalJson(s.exitStatus)},
            {"signal", optionalJson(s.signal)},
            {"state", runStateName(s.state)}};
}

LaunchSegment segmentFrom(const Json& j)
{
    LaunchSegment s;
    s.restart = j.value("restart", 0);
    s.pid = optionalFrom<std::int64_t>(j, "pid").value_or(0);
    s.pidStartTime = j.value("pid_start_time", std::uint64_t{0});
    s.supervisorPid = optionalFrom<std::int64_t>(j, "supervisor_pid").value_or(0);
    s.host = str(j, "host");
    s.started = str(j, "started");
    s.ended = str(j, "ended");
    s.exitStatus = optionalFrom<int>(j, "exit_status");
    s.signal = optionalFrom<int>(j, "signal");
    s.state = runStateFromName(str(j, "state")).value_or(RunState::Lost);
    return s;
}

} // namespace

const char* runStateName(RunState state)
{
    switch (state) {
    case RunState::Pending:
        return "pending";
    case RunState::Running:
        return "running";
    case RunState::Completed:
        return "completed";
    case RunState::Failed:
        return "failed";
    case RunState::Stopped:
        return "stopped";
    case RunState::Requeued:
        return "requeued";
    case RunState::Lost:
        return "lost";
    }
    return "lost";
}

std::optional<RunState> runStateFromName(const std::string& name)
{
    for (RunState s : kStates)
        if (name == runStateName(s))
            return s;
    return std::nullopt;
}

bool isFinished(RunState state)
{
    return state == RunState::Completed || state == RunState::Failed ||
           state == RunState::Stopped || state == RunState::Lost;
}

std::vector<std::int64_t> LaunchAttempt::pids() const
{
    std::vector<std::int64_t> out;
    for (const LaunchSegment& s : segments)
        if (s.pid)
            out.push_back(s.pid);
    return out;
}

fs::path LaunchRecord::launchDir(const fs::path& runRoot)
{
    return runRoot / ".ckpt-studio" / "launch";
}

fs::path LaunchRecord::pathFor(const fs::path& runRoot)
{
    return launchDir(runRoot) / "record.json";
}

Json LaunchRecord::toJson() const
{
    Json attemptsJson = Json::array();
    for (const LaunchAttempt& a : attempts) {
        Json segs = Json::array();
        for (const LaunchSegment& s : a.segments)
            segs.push_back(segmentJson(s));
        Json pids = Json::array();
        for (auto pid : a.pids())
            pids.push_back(pid);
        attemptsJson.push_back({{"index", a.index},
                                {"submitted", a.submitted},
                                {"state", runStateName(a.state)},
                                {"ended", a.ended.empty() ? Json(nullptr) : Json(a.ended)},
                                {"job_id", a.jobId.empty() ? Json(nullptr) : Json(a.jobId)},
                                {"slurm_state", a.slurmState},
                                {"pids", pids},
                                {"log", a.logPath},
                                {"events", a.eventsPath},
                                {"script", a.scriptPath},
                                {"plan", planJson(a.plan)},
                                {"segments", segs}});
    }
    return {{"ckpt_studio_launch_record", kVersion},
            {"run_root", runRoot},
            {"name", name},
            {"state", runStateName(state())},
            {"attempts", attemptsJson}};
}

Result<LaunchRecord> LaunchRecord::fromJson(const Json& j, const std::string& origin)
{
    try {
        if (!j.is_object() || !j.contains("ckpt_studio_launch_record"))
            return Error::at(origin, "not a Ckpt Studio launch record");
        if (j.at("ckpt_studio_launch_record").get<int>() > kVersion)
            return Error::at(origin, "launch record version " +
                                         j.at("ckpt_studio_launch_record").dump() +
                                         " is newer than this Ckpt Studio understands");
        LaunchRecord rec;
        rec.runRoot = str(j, "run_root");
        rec.name = str(j, "name");
        for (const Json& aj : j.value("attempts", Json::array())) {
            LaunchAttempt a;
            a.index = aj.value("index", static_cast<int>(rec.attempts.size()) + 1);
            a.submitted = str(aj, "submitted");
            a.state = runStateFromName(str(aj, "state")).value_or(RunState::Lost);
            a.ended = str(aj, "ended");
            a.jobId = str(aj, "job_id");
            a.slurmState = str(aj, "slurm_state");
            a.logPath = str(aj, "log");
            a.eventsPath = str(aj, "events");
            a.scriptPath = str(aj, "script");
            a.plan = planFrom(aj.value("plan", Json::object()), rec);
            for (const Json& sj : aj.value("segments", Json::array()))
                a.segments.push_back(segmentFrom(sj));
            rec.attempts.push_back(std::move(a));
        }
        return rec;
    } catch (const std::exception& e) {
        return Error::at(origin, std::string("malformed launch record: ") + e.what());
    }
}

Result<LaunchRecord> LaunchRecord::load(const fs::path& path)
{
    auto text = readFile(path);
    if (!text)
        return text.error();
    auto json = LenientJson::parse(*text, path.string());
    if (!json)
        return json.error();
    return fromJson(*json, path.string());
}

Status LaunchRecord::save() const
{
    const fs::path path = pathFor(runRoot);
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec)
        return Error::at(path.parent_path().string(), "cannot create the folder: " + ec.message());
    return writeFileAtomically(path, toJson().dump(2) + "\n");
}

std::string isoNow()
{
    return QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString();
}

std::string isoFromUnix(std::int64_t seconds)
{
    return QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC).toString(Qt::ISODate).toStdString();
}

} // namespace ckpt
