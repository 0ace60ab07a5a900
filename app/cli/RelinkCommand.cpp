#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "RunArgument.h"
#include "ops/Relinker.h"

namespace ckpt::cli {

namespace {

nlohmann::ordered_json toJson(const RelinkOutcome& o, const std::vector<int>& overwrites)
{
    auto opt = [](const std::optional<std::string>& s) {
        return s ? nlohmann::ordered_json(*s) : nlohmann::ordered_json(nullptr);
    };
    return {{"link", o.link},
            {"path", o.linkPath},
            {"previous_target", opt(o.previousTarget)},
            {"target", opt(o.newTarget)},
            {"epoch", o.epoch ? nlohmann::ordered_json(*o.epoch) : nlohmann::ordered_json(nullptr)},
            {"changed", o.changed},
            {"forced_past", o.overridden},
            {"warnings", o.warnings},
            {"restart_overwrites", overwrites},
            {"journal_id", o.journalId},
            {"audit_log", o.auditLog}};
}

std::string describe(const RelinkOutcome& o, const std::vector<int>& overwrites)
{
    std::string text;
    if (!o.changed)
        text =
            o.link + " already points at " + o.newTarget.value_or("nothing") + "; nothing done\n";
    else
        text = o.link + ": " + o.previousTarget.value_or("(no link)") + " -> " +
               o.newTarget.value_or("(no link)") + "\n";
    for (const auto& s : o.overridden)
        text += "forced past: " + s + "\n";
    for (const auto& s : o.warnings)
        text += "warning: " + s + "\n";
    if (o.link == "last" && !overwrites.empty())
        text += "a restart from here overwrites epochs " + std::to_string(overwrites.front()) +
                (overwrites.size() > 1 ? std::string("-").append(std::to_string(overwrites.back()))
                                       : std::string()) +
                " one by one\n";
    if (o.changed)
        text += "logged in " + o.auditLog + "; undo with: ckpt relink RUN --undo\n";
    return text;
}

} // namespace

int runRelink(const QStringList& arguments)
{
    CommandLine cl(
        QStringLiteral("relink"),
        QStringLiteral("RUN (--last N | --best N | --undo | --repair last|best|all) "
                       "[--force] [--json]"),
        QStringLiteral("Points the run's `last` or `best` link at epoch N (a relative link, "
                       "replaced atomically), for rollback. Refuses a missing epoch and one "
                       "whose checksum fails unless --force. Every change is appended to the "
                       "run's ckpt.log and journalled so that --undo restores the previous "
                       "link.\nExit status 1 when the change is refused."));
    cl.addOption(
        {QStringLiteral("last"), QStringLiteral("Point `last` at epoch N."), QStringLiteral("N")});
    cl.addOption(
        {QStringLiteral("best"), QStringLiteral("Point `best` at epoch N."), QStringLiteral("N")});
    cl.addOption({QStringLiteral("undo"), QStringLiteral("Revert the most recent relink.")});
    cl.addOption({QStringLiteral("repair"),
                  QStringLiteral("Re-point a link that a move or a copy broke (absolute, "
                                 "dangling or into the original run) at this run's epoch of "
                                 "the same number; `all`: every such link."),
                  QStringLiteral("LINK")});
    cl.addOption({QStringLiteral("force"),
                  QStringLiteral("Relink even if the epoch's model or checksum is bad.")});
    if (auto exit = cl.parse(arguments, 1, 1))
        return *exit;
    const int actions = int(cl.isSet("last")) + int(cl.isSet("best")) + int(cl.isSet("undo")) +
                        int(cl.isSet("repair"));
    if (actions != 1)
        return cl.usageError(
            QStringLiteral("give exactly one of --last, --best, --undo, --repair"));

    auto run = loadRunArgument(cl.positional().first());
    if (!run) {
        return cl.fail(run.error().message);
    }
    RelinkOptions options;
    options.force = cl.isSet("force");
    Result<RelinkOutcome> outcome = Error{};
    if (cl.isSet("repair") && cl.value("repair") == QLatin1String("all")) {
        auto all = Relinker::repairAll(run->root, options);
        if (!all)
            return cl.fail("refused: " + all.error().message, ExitProblems);
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const RelinkOutcome& o : *all) {
            if (cl.json())
                list.push_back(toJson(o, {}));
            else
                Console::out(describe(o, {}));
        }
        if (cl.json())
            Console::json({{"repairs", list}});
        return ExitOk;
    }
    if (cl.isSet("undo")) {
        outcome = Relinker::undo(run->root, options);
    } else if (cl.isSet("repair")) {
        outcome = Relinker::repair(run->root, cl.value("repair").toStdString(), options);
    } else {
        const QString name = cl.isSet("last") ? QStringLiteral("last") : QStringLiteral("best");
        const auto epoch = cl.intValue(name, 0);
        if (!epoch)
            return ExitUsage;
        TerminalProgress progress("checking epoch " + std::to_string(*epoch));
        outcome =
            Relinker::relink(run->root, name.toStdString(), *epoch, options, progress.progress());
    }
    if (!outcome) {
        return cl.fail("refused: " + outcome.error().message, ExitProblems);
    }
    std::vector<int> overwrites;
    if (outcome->link == "last" && outcome->epoch)
        overwrites = Relinker::restartOverwrites(*run, *outcome->epoch);
    if (cl.json())
        Console::json(toJson(*outcome, overwrites));
    else
        Console::out(describe(*outcome, overwrites));
    return ExitOk;
}

} // namespace ckpt::cli
