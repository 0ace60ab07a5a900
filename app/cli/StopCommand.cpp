#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "LaunchedRunArgument.h"
#include "launch/Launcher.h"

namespace ckpt::cli {

int runStop(const QStringList& arguments)
{
    CommandLine cl(QStringLiteral("stop"), QStringLiteral("RUN [--grace SECONDS] [--json]"),
                   QStringLiteral("Stops a run launched by Ckpt Studio: a local trainer gets "
                                  "SIGTERM, then SIGKILL after the grace time; a Slurm job is "
                                  "cancelled (scancel). The exit is recorded in the run's "
                                  "record.\nExit status 1 when the run is not running."));
    cl.addOption({QStringLiteral("grace"),
                  QStringLiteral("Seconds between SIGTERM and SIGKILL (default 10)."),
                  QStringLiteral("SECONDS"), QStringLiteral("10")});
    if (auto exit = cl.parse(arguments, 1, 1))
        return *exit;
    const auto grace = cl.intValue(QStringLiteral("grace"), 0);
    if (!grace)
        return ExitUsage;
    auto root = launchedRunRoot(cl.positional().first());
    if (!root)
        return cl.fail(root.error().message);
    TerminalProgress progress("stopping " + *root);
    auto record = Launcher::stop(*root, std::chrono::seconds(*grace), progress.progress());
    if (!record) {
        const bool refused = record.error().message.find("nothing to stop") != std::string::npos;
        return cl.fail(record.error().message, refused ? ExitProblems : ExitUsage);
    }
    const LaunchAttempt* a = record->latest();
    if (cl.json()) {
        Console::json(
            {{"run", *root},
             {"state", runStateName(a->state)},
             {"slurm_state", a->slurmState.empty() ? nlohmann::ordered_json(nullptr)
                                                   : nlohmann::ordered_json(a->slurmState)},
             {"exit_status", !a->segments.empty() && a->segments.back().exitStatus
                                 ? nlohmann::ordered_json(*a->segments.back().exitStatus)
                                 : nlohmann::ordered_json(nullptr)}});
    } else {
        std::string text = *root + ": " + runStateName(a->state);
        if (!a->segments.empty() && a->segments.back().signal)
            text += " (signal " + std::to_string(*a->segments.back().signal) + ")";
        else if (!a->segments.empty() && a->segments.back().exitStatus)
            text += " (exit status " + std::to_string(*a->segments.back().exitStatus) + ")";
        if (!a->slurmState.empty())
            text += ", Slurm " + a->slurmState;
        Console::out(text + "\n");
    }
    return ExitOk;
}

} // namespace ckpt::cli
