#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "RunArgument.h"
#include "launch/CommandTemplate.h"
#include "launch/LaunchPrep.h"
#include "launch/LaunchSweep.h"
#include "launch/Launcher.h"
#include "launch/LogTail.h"
#include "launch/PreparedLaunches.h"

#include <QThread>

#include <algorithm>

namespace ckpt::cli {

namespace {

QCommandLineOption option(const char* name, const char* help, const char* value = nullptr)
{
    return value ? QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help),
                                      QString::fromLatin1(value))
                 : QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help));
}

nlohmann::ordered_json outcomeJson(const PreparedLaunch& p, int from, const LaunchRecord* record)
{
    using Json = nlohmann::ordered_json;
    const LaunchAttempt* a = record ? record->latest() : nullptr;
    Json pid = nullptr;
    if (a && !a->segments.empty() && a->segments.back().pid > 0)
        pid = a->segments.back().pid;
    return Json{{"run", p.plan.runRoot},
                {"mode", LaunchPlan::modeName(p.plan.mode)},
                {"from", from},
                {"parent", p.parentRoot.string()},
                {"backend", LaunchPlan::backendName(p.plan.backend)},
                {"job_id", a && !a->jobId.empty() ? Json(a->jobId) : Json(nullptr)},
                {"pid", pid},
                {"config", p.plan.configFile},
                {"argv", p.plan.argv},
                {"superseded", p.superseded},
                {"superseded_dir",
                 p.supersededDir.empty() ? Json(nullptr) : Json(p.supersededDir.string())},
                {"state", a ? Json(runStateName(a->state)) : Json("planned")},
                // What a client shows as the preview (the window over ssh).
                {"command_template", p.plan.commandTemplate},
                {"check_failures", p.checkFailures},
                {"plan", LaunchPrep::describe(p)},
                {"batch_script", p.plan.backend == LaunchPlan::Backend::Slurm
                                     ? Json(Launcher::batchScript({p.plan}, 0))
                                     : Json(nullptr)}};
}

// The trainer did not start (a missing program, sbatch refused): the restart
// or fork is put back so no moved epochs or empty fork are left without a run.
int failedToStart(const CommandLine& cl, const PreparedLaunch& p, const Error& error)
{
    const Status undone = LaunchPrep::undo(p);
    if (undone)
        (void)PreparedLaunches().remove(p.plan.runRoot);
    return cl.fail(
        error.message +
            (undone ? std::string(p.plan.mode == LaunchPlan::Mode::Fork
                                      ? " (the fork was removed again)"
                                      : " (the restart was undone: the run is as it "
                                        "was)")
                    : " (undoing the preparation failed too: " + undone.error().message + ")"),
        ExitProblems);
}

// --sweep: one fork per value, all prepared (and refused together) before any
// is applied; locally trained K at a time, on Slurm one job array.
int runSweep(const CommandLine& cl, const PrepRequest& base, const Launcher& launcher)
{
    if (cl.isSet(QStringLiteral("into")))
        return cl.usageError(QStringLiteral("--sweep names its forks itself: no --into"));
    if (cl.isSet(QStringLiteral("prepare-only")))
        return cl.usageError(QStringLiteral("--prepare-only prepares one restart or fork"));
    auto sweep = ParamEdit::parseSweep(cl.value(QStringLiteral("sweep")).toStdString());
    if (!sweep)
        return cl.usageError(QString::fromStdString(sweep.error().message));
    int parallel = 0;
    if (cl.isSet(QStringLiteral("parallel"))) {
        const auto k = cl.intValue(QStringLiteral("parallel"), 1);
        if (!k)
            return ExitUsage;
        parallel = *k;
    }
    const bool json = cl.json();
    TerminalProgress progress("checking epoch " + std::to_string(base.fromEpoch));
    auto prepared = LaunchSweep::prepare(base, *sweep, launcher.registry(), progress.progress());
    if (!prepared)
        return cl.fail(prepared.error().message, ExitProblems);
    std::vector<PreparedLaunch>& runs = *prepared;
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    if (cl.isSet(QStringLiteral("dry-run"))) {
        for (const auto& p : runs) {
            if (json)
                out.push_back(outcomeJson(p, base.fromEpoch, nullptr));
            else
                Console::out(LaunchPrep::describe(p));
        }
        if (!json && base.backend == LaunchPlan::Backend::Slurm) {
            std::vector<LaunchPlan> plans;
            for (const auto& p : runs)
                plans.push_back(p.plan);
            Console::out("batch script (one job array):\n" +
                         Launcher::batchScript(plans, parallel));
        }
        json ? Console::json({{"runs", out}}) : Console::out("(dry run: nothing changed)\n");
        return ExitOk;
    }
    if (Status st = LaunchSweep::apply(runs); !st)
        return cl.fail(st.error().message, ExitProblems);

    if (base.backend == LaunchPlan::Backend::Slurm) {
        auto records = LaunchSweep::submitArray(runs, parallel, launcher);
        if (!records)
            return cl.fail(records.error().message, ExitProblems);
        for (std::size_t i = 0; i < runs.size(); ++i) {
            Console::err("submitted " + runs[i].plan.runRoot + " as job " +
                         (*records)[i].latest()->jobId + "\n");
            out.push_back(outcomeJson(runs[i], base.fromEpoch, &(*records)[i]));
        }
        if (json)
            Console::json({{"runs", out}});
        return ExitOk; // `ckpt runs` follows the array's tasks
    }
    // The local queue: K trainers at a time, the next started as one ends.
    SweepQueue queue(std::move(runs), parallel > 0 ? parallel : 1, launcher);
    const bool detach = cl.isSet(QStringLiteral("detach"));
    if (detach)
        queue.startAll(); // nobody stays to feed a queue
    for (;;) {
        const bool done = detach || queue.step();
        for (const std::string& m : queue.takeMessages())
            Console::err(m + "\n");
        if (done)
            break;
        QThread::msleep(200);
    }
    for (const SweepQueue::Item& item : queue.items())
        out.push_back(
            outcomeJson(item.prepared, base.fromEpoch, item.record ? &*item.record : nullptr));
    if (json)
        Console::json({{"runs", out}});
    const bool allStarted = std::all_of(queue.items().begin(), queue.items().end(),
                                        [](const SweepQueue::Item& i) { return i.error.empty(); });
    return (detach && allStarted) || queue.allCompleted() ? ExitOk : ExitProblems;
}

// --undo-prepared: the last restart or fork of RUN applied by --prepare-only.
int undoPrepared(const CommandLine& cl, const std::string& run)
{
    const PreparedLaunches store;
    auto latest = store.latestFor(run);
    if (!latest)
        return cl.fail(latest.error().message, ExitProblems);
    if (!*latest)
        return cl.fail(run + ": no prepared restart or fork to undo (ckpt launch RUN --from N "
                             "--prepare-only makes one)",
                       ExitProblems);
    const PreparedLaunch& p = **latest;
    if (Status st = LaunchPrep::undo(p); !st)
        return cl.fail(st.error().message, ExitProblems);
    if (Status st = store.remove(p.plan.runRoot); !st)
        return cl.fail(st.error().message, ExitProblems);
    if (p.plan.mode == LaunchPlan::Mode::Fork)
        Console::out("removed the prepared fork " + p.runFolder.string() + "\n");
    else
        Console::out("undid the prepared restart of " + p.parentRoot.string() + " from epoch " +
                     std::to_string(p.plan.parent ? p.plan.parent->epoch : 0) + "\n");
    return ExitOk;
}

} // namespace

int runLaunch(const QStringList& arguments)
{
    CommandLine cl(
        QStringLiteral("launch"),
        QStringLiteral(
            "RUN --from N [--fork [--into DIR]] [--config FILE] [--set KEY=VALUE]... "
            "[--backend local|slurm] [--slurm-partition P] [--slurm-time T] "
            "[--slurm-cpus C] [--slurm-gpus G] [--slurm-mem M] [--sbatch ARG]... "
            "[--sweep KEY=V1,V2,... [--parallel K]] [--force] [--dry-run | --prepare-only] "
            "[--detach] [--json] [-- COMMAND TEMPLATE...]\n"
            "       ckpt launch RUN --undo-prepared"),
        QStringLiteral(
            "Restarts RUN from epoch N, or forks a new run from it, with edited parameters, and "
            "launches the trainer. CANDLE, PyTorch Lightning and Orbax runs can be steered.\n"
            "Restart: CANDLE moves the epochs after N aside into "
            "RUN/.ckpt-studio/superseded/<time>/ (with its logs as they were) and relinks last "
            "(and best when it pointed past N); Lightning goes on in the logger's next "
            "version_N folder and leaves RUN as it is; Orbax moves the later steps aside. Fork: a "
            "new run folder beside the parent "
            "(or --into DIR) with epoch N hard-linked (and last, for CANDLE); the parent is not "
            "changed.\n"
            "The edited config is a new file in the run's .ckpt-studio/configs/ (INI, JSON or "
            "YAML, comments kept). The command template defaults to the run's last launch. "
            "Placeholders: {config} {checkpoint} {epoch} {initial_epoch} {step} {run_dir} "
            "{output_dir} and any {parameter}; CANDLE adds {ckpt_directory} and "
            "{ckpt_restart_mode} (its trainers get required), Lightning {version}.\n"
            "Without --detach the trainer's output is streamed and the exit status is the run's "
            "(0 completed, 1 failed or stopped). --dry-run prints the plan and changes "
            "nothing. --prepare-only applies the plan (epochs moved aside, links, config) "
            "without launching; --undo-prepared puts it back. A trainer that cannot start "
            "(missing program, sbatch refused) is undone the same way.\n"
            "--sweep forks once per value; locally --parallel K run at a time, on Slurm the "
            "forks are one job array (%K with --parallel), each task its own run and record."));
    cl.addOption(option("from", "The epoch to restart or fork from.", "N"));
    cl.addOption(option("fork", "Fork a new run instead of restarting in place."));
    cl.addOption(option("into", "The fork's new folder (default: beside the parent).", "DIR"));
    cl.addOption(option("config", "The parameter file to edit (default: the run's).", "FILE"));
    cl.addOption(option("set", "Edit one parameter (a Python literal or a word).", "KEY=VALUE"));
    cl.addOption(option("sweep",
                        "Fork once per value (fan-out), each run beside the parent named "
                        "<run>-fork-eNNN-<key>-<value>.",
                        "KEY=V1,V2,..."));
    cl.addOption(option("parallel", "Sweep runs trained at a time (default 1).", "K"));
    cl.addOption(option("backend", "local (default) or slurm.", "BACKEND"));
    cl.addOption(option("slurm-partition", "Slurm partition.", "P"));
    cl.addOption(option("slurm-time", "Slurm time limit.", "T"));
    cl.addOption(option("slurm-cpus", "CPUs per task.", "C"));
    cl.addOption(option("slurm-gpus", "GPUs.", "G"));
    cl.addOption(option("slurm-mem", "Memory (4G).", "M"));
    cl.addOption(option("sbatch", "An extra #SBATCH argument.", "ARG"));
    cl.addOption(option("force", "Launch from an epoch that fails the restart check."));
    cl.addOption(option("dry-run", "Print the plan; change nothing."));
    cl.addOption(option("prepare-only", "Apply the plan but do not launch (undo: "
                                        "--undo-prepared)."));
    cl.addOption(
        option("undo-prepared", "Undo RUN's last restart or fork made with --prepare-only."));
    cl.addOption(option("detach", "Return once the trainer started."));
    if (auto exit = cl.parse(arguments, 1, -1))
        return *exit;
    if (cl.isSet(QStringLiteral("undo-prepared")))
        return undoPrepared(cl, cl.positional().first().toStdString());
    // RUN as the other commands take it: the run's root, or a folder holding one run.
    const auto root = runRootArgument(cl.positional().first());
    if (!root)
        return cl.fail(root.error().message);
    if (!cl.isSet(QStringLiteral("from")))
        return cl.usageError(QStringLiteral("--from N is required"));
    const auto from = cl.intValue(QStringLiteral("from"), 0);
    if (!from)
        return ExitUsage;
    if (cl.isSet(QStringLiteral("into")) && !cl.isSet(QStringLiteral("fork")))
        return cl.usageError(QStringLiteral("--into goes with --fork"));

    PrepRequest request;
    const QStringList positional = cl.positional();
    request.runRoot = *root;
    request.fromEpoch = *from;
    request.mode =
        cl.isSet(QStringLiteral("fork")) ? LaunchPlan::Mode::Fork : LaunchPlan::Mode::Restart;
    request.forkFolder = cl.value(QStringLiteral("into")).toStdString();
    request.configFile = cl.value(QStringLiteral("config")).toStdString();
    request.force = cl.isSet(QStringLiteral("force"));
    for (const QString& set : cl.parser().values(QStringLiteral("set"))) {
        auto edit = ParamEdit::parse(set.toStdString());
        if (!edit)
            return cl.usageError(QString::fromStdString(edit.error().message));
        request.edits.push_back(std::move(*edit));
    }
    for (qsizetype i = 1; i < positional.size(); ++i)
        request.commandTemplate +=
            (i > 1 ? " " : "") + CommandTemplate::shellQuote(positional[i].toStdString());
    if (cl.isSet(QStringLiteral("backend"))) {
        auto backend =
            LaunchPlan::backendFromName(cl.value(QStringLiteral("backend")).toStdString());
        if (!backend)
            return cl.usageError(QStringLiteral("--backend is local or slurm"));
        request.backend = *backend;
    }
    SlurmOptions& slurm = request.slurm;
    slurm.partition = cl.value(QStringLiteral("slurm-partition")).toStdString();
    slurm.time = cl.value(QStringLiteral("slurm-time")).toStdString();
    slurm.memory = cl.value(QStringLiteral("slurm-mem")).toStdString();
    for (const auto& [name, field] :
         {std::pair{"slurm-cpus", &slurm.cpusPerTask}, std::pair{"slurm-gpus", &slurm.gpus}}) {
        if (!cl.isSet(QString::fromLatin1(name)))
            continue;
        const auto n = cl.intValue(QString::fromLatin1(name), 0);
        if (!n)
            return ExitUsage;
        *field = *n;
    }
    for (const QString& arg : cl.parser().values(QStringLiteral("sbatch")))
        slurm.extraLines.push_back(arg.toStdString());
    if (const auto problems = slurm.problems(); !problems.empty())
        return cl.usageError(QString::fromStdString("--slurm-*/--sbatch: " + problems.front()));

    const Launcher launcher;
    if (cl.isSet(QStringLiteral("sweep")))
        return runSweep(cl, request, launcher);
    TerminalProgress progress("checking epoch " + std::to_string(*from));
    auto prepared = LaunchPrep::prepare(request, launcher.registry(), progress.progress());
    if (!prepared)
        return cl.fail(prepared.error().message, ExitProblems);
    const bool json = cl.json();
    if (cl.isSet(QStringLiteral("dry-run"))) {
        if (json)
            Console::json(outcomeJson(*prepared, *from, nullptr));
        else
            Console::out(LaunchPrep::describe(*prepared) +
                         (prepared->plan.backend == LaunchPlan::Backend::Slurm
                              ? "batch script:\n" + Launcher::batchScript({prepared->plan}, 0)
                              : std::string()) +
                         "(dry run: nothing changed)\n");
        return ExitOk;
    }
    if (Status st = LaunchPrep::apply(*prepared); !st)
        return cl.fail(st.error().message, ExitProblems);
    if (cl.isSet(QStringLiteral("prepare-only"))) {
        if (Status st = PreparedLaunches().add(*prepared); !st) {
            (void)LaunchPrep::undo(*prepared);
            return cl.fail(st.error().message + " (not prepared)", ExitProblems);
        }
        if (json) {
            Console::json(outcomeJson(*prepared, *from, nullptr));
        } else {
            Console::out(LaunchPrep::describe(*prepared));
            Console::out("prepared, not launched. Undo: ckpt launch " +
                         CommandTemplate::shellQuote(positional.first().toStdString()) +
                         " --undo-prepared\n");
        }
        return ExitOk;
    }
    if (!json)
        Console::err(LaunchPrep::describe(*prepared));
    auto record = launcher.launch(prepared->plan);
    if (!record)
        return failedToStart(cl, *prepared, record.error());
    (void)PreparedLaunches().remove(prepared->plan.runRoot); // launched: recorded from now on

    if (!cl.isSet(QStringLiteral("detach"))) {
        // Stream the trainer's output until the run ends.
        LogTail tail(record->latest()->logPath);
        for (;;) {
            auto now = Launcher::refresh(prepared->plan.runRoot);
            if (auto text = tail.readMore(); text && !text->empty())
                json ? Console::err(*text) : Console::out(*text);
            if (now) {
                record = std::move(now);
                if (isFinished(record->state()))
                    break;
            }
            QThread::msleep(200);
        }
        if (auto text = tail.readMore(); text && !text->empty())
            json ? Console::err(*text) : Console::out(*text);
    }
    if (json)
        Console::json(outcomeJson(*prepared, *from, &*record));
    else
        Console::err(prepared->plan.runRoot + ": " + runStateName(record->state()) + "\n");
    const bool detached = cl.isSet(QStringLiteral("detach"));
    return detached || record->state() == RunState::Completed ? ExitOk : ExitProblems;
}

} // namespace ckpt::cli
