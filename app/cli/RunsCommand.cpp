#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "TextTable.h"
#include "launch/Launcher.h"
#include "launch/RunSummary.h"
#include "report/Format.h"

#include <QDateTime>
#include <QDir>

#include <algorithm>

namespace ckpt::cli {

namespace {

using Json = nlohmann::ordered_json;

std::optional<qint64> duration(const LaunchAttempt& a)
{
    return RunSummary::durationSeconds(a, QDateTime::currentSecsSinceEpoch());
}

std::string humanDuration(std::optional<qint64> s)
{
    if (!s)
        return "-";
    const qint64 h = *s / 3600;
    const qint64 m = (*s % 3600) / 60;
    const qint64 sec = *s % 60;
    char buf[32];
    if (h > 0)
        std::snprintf(buf, sizeof buf, "%lldh%02lldm", static_cast<long long>(h),
                      static_cast<long long>(m));
    else
        std::snprintf(buf, sizeof buf, "%lldm%02llds", static_cast<long long>(m),
                      static_cast<long long>(sec));
    return buf;
}

std::string parentText(const LaunchPlan& p)
{
    if (!p.parent)
        return "-";
    return p.parent->runRoot + "@" + std::to_string(p.parent->epoch);
}

Json runJson(const Launcher::Listed& l)
{
    Json j = {{"run", l.entry.runRoot}, {"name", l.entry.name}};
    const LaunchAttempt* a = l.record ? l.record->latest() : nullptr;
    if (!a) {
        j["state"] = l.gone ? Json("gone") : Json(nullptr);
        // A folder deleted since is a state, not a record that could not be read.
        j["error"] = l.error.empty() || l.gone ? Json(nullptr) : Json(l.error);
        return j;
    }
    Json pids = Json::array();
    for (auto pid : a->pids())
        pids.push_back(pid);
    Json parent = nullptr;
    if (a->plan.parent)
        parent = {{"run_root", a->plan.parent->runRoot},
                  {"epoch", a->plan.parent->epoch},
                  {"checksum", a->plan.parent->checksum}};
    const auto secs = duration(*a);
    j["state"] = runStateName(a->state);
    j["backend"] = LaunchPlan::backendName(a->plan.backend);
    j["mode"] = LaunchPlan::modeName(a->plan.mode);
    j["job_id"] = a->jobId.empty() ? Json(nullptr) : Json(a->jobId);
    j["slurm_state"] = a->slurmState.empty() ? Json(nullptr) : Json(a->slurmState);
    j["pids"] = pids;
    j["parent"] = parent;
    j["started"] = a->segments.empty() ? Json(nullptr) : Json(a->segments.front().started);
    j["ended"] = a->ended.empty() ? Json(nullptr) : Json(a->ended);
    j["duration_seconds"] = secs ? Json(*secs) : Json(nullptr);
    j["segments"] = a->segments.size();
    j["attempts"] = l.record->attempts.size();
    j["log"] = a->logPath;
    j["record"] = LaunchRecord::pathFor(l.entry.runRoot).string();
    j["error"] = l.error.empty() ? Json(nullptr) : Json(l.error);
    return j;
}

int forget(const CommandLine& cl)
{
    if (!cl.positional().isEmpty())
        return cl.usageError(QStringLiteral("--forget takes no DIR"));
    const std::string root =
        QDir::cleanPath(QDir(cl.value(QStringLiteral("forget"))).absolutePath()).toStdString();
    const LaunchRegistry registry;
    auto launched = registry.launched();
    if (!launched)
        return cl.fail(launched.error().message);
    const bool listed = std::any_of(launched->begin(), launched->end(),
                                    [&](const auto& entry) { return entry.runRoot == root; });
    if (!listed)
        return cl.fail(root + " is not in the registry of launched runs (" +
                       registry.file().string() + ")");
    if (auto done = registry.forget(root); !done)
        return cl.fail(done.error().message);
    if (cl.json())
        Console::json({{"forgotten", root}, {"registry", registry.file().string()}});
    else
        Console::out("forgot " + root + " (its files are untouched)\n");
    return ExitOk;
}

// Takes every run whose folder no longer exists off the registry.
int forgetGone(const CommandLine& cl)
{
    if (!cl.positional().isEmpty())
        return cl.usageError(QStringLiteral("--forget-gone takes no DIR"));
    // Gone as `ckpt runs` says it: the folder is not there (no record is read,
    // no Slurm job asked about).
    const LaunchRegistry registry;
    auto launched = registry.launched();
    if (!launched)
        return cl.fail(launched.error().message);
    Json forgotten = Json::array();
    std::string text;
    for (const auto& entry : *launched) {
        std::error_code ec;
        if (std::filesystem::exists(entry.runRoot, ec) || ec)
            continue;
        if (auto done = registry.forget(entry.runRoot); !done)
            return cl.fail(done.error().message);
        forgotten.push_back(entry.runRoot);
        text += "forgot " + entry.runRoot + " (its folder no longer exists)\n";
    }
    if (cl.json())
        Console::json({{"forgotten", forgotten}, {"registry", registry.file().string()}});
    else
        Console::out(text.empty() ? std::string("no gone runs in the registry\n") : text);
    return ExitOk;
}

} // namespace

int runRuns(const QStringList& arguments)
{
    CommandLine cl(QStringLiteral("runs"), QStringLiteral("[DIR] [--json] | --forget RUN"),
                   QStringLiteral("Runs launched by Ckpt Studio (the per-user registry), "
                                  "optionally only those below DIR, each brought up to date: "
                                  "state, backend, Slurm job id or pid, parent, start, "
                                  "duration.\n--forget RUN takes a run off the registry; its "
                                  "folder, epochs and launch record are not touched. "
                                  "--forget-gone takes off every run whose folder was "
                                  "deleted.\nExit "
                                  "status 1 when a run's record or its Slurm state could not "
                                  "be read."));
    cl.addOption({QStringLiteral("forget"),
                  QStringLiteral("Take RUN off the registry (files stay)."),
                  QStringLiteral("RUN")});
    cl.addOption(
        {QStringLiteral("forget-gone"),
         QStringLiteral("Take every run whose folder no longer exists off the registry.")});
    if (auto exit = cl.parse(arguments, 0, 1))
        return *exit;
    if (cl.isSet(QStringLiteral("forget")))
        return forget(cl);
    if (cl.isSet(QStringLiteral("forget-gone")))
        return forgetGone(cl);
    std::filesystem::path under;
    if (!cl.positional().isEmpty())
        under = QDir(cl.positional().first()).absolutePath().toStdString();
    Launcher launcher;
    auto listed = launcher.runs(under);
    if (!listed)
        return cl.fail(listed.error().message);
    bool problems = false;
    if (cl.json()) {
        Json runs = Json::array();
        for (const auto& l : *listed) {
            runs.push_back(runJson(l));
            problems = problems || (!l.error.empty() && !l.gone);
        }
        Console::json({{"registry", launcher.registry().file().string()}, {"runs", runs}});
        return problems ? ExitProblems : ExitOk;
    }
    TextTable table({"RUN", "STATE", "BACKEND", "JOB/PID", "PARENT", "STARTED", "DURATION"});
    std::size_t gone = 0;
    for (const auto& l : *listed) {
        const LaunchAttempt* a = l.record ? l.record->latest() : nullptr;
        if (l.gone) {
            ++gone;
        } else if (!l.error.empty()) {
            problems = true;
            Console::err("warning: " + l.error + "\n");
        }
        if (!a) {
            table.addRow({l.entry.runRoot, l.gone ? "gone" : "?", "-", "-", "-", "-", "-"});
            continue;
        }
        table.addRow({l.entry.runRoot, runStateName(a->state),
                      LaunchPlan::backendName(a->plan.backend), RunSummary::process(*a),
                      parentText(a->plan), RunSummary::started(*a), humanDuration(duration(*a))});
    }
    if (table.empty())
        Console::out("no launched runs" +
                     (under.empty() ? std::string() : " below " + under.string()) + "\n");
    else
        Console::out(table.render());
    if (gone > 0)
        Console::err("note: " + Format::counted(static_cast<long long>(gone), "run") +
                     (gone == 1 ? " is gone (its folder was deleted)"
                                : " are gone (their folders were deleted)") +
                     "; `ckpt runs --forget-gone` takes " + (gone == 1 ? "it" : "them") +
                     " off the list\n");
    return problems ? ExitProblems : ExitOk;
}

} // namespace ckpt::cli
