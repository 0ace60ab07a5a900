#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "RunArgument.h"
#include "launch/RunBranches.h"
#include "report/HistoryTable.h"

namespace ckpt::cli {

int runHistory(const QStringList& arguments)
{
    CommandLine cl(
        QStringLiteral("history"), QStringLiteral("RUN [--csv | --json] [--all-segments]"),
        QStringLiteral("The run's metric history, one row per epoch and a column per metric, "
                       "merged from training.log, ckpt.log, history.txt and ckpt-info.json.\n"
                       "A restart keeps a copy of the run's logs with the epochs it moves aside: "
                       "values the restarted trainer no longer logs for earlier epochs are read "
                       "from there.\n"
                       "After a restart, an epoch trained twice shows the newer values unless "
                       "--all-segments is given.\nExit status 1 when a source could not be "
                       "read completely (the problems go to stderr)."));
    cl.addOption({QStringLiteral("csv"), QStringLiteral("CSV on stdout.")});
    cl.addOption({QStringLiteral("all-segments"),
                  QStringLiteral("Every (segment, epoch) row, superseded ones included.")});
    if (auto exit = cl.parse(arguments, 1, 1))
        return *exit;
    if (cl.json() && cl.isSet("csv"))
        return cl.usageError(QStringLiteral("--csv and --json exclude each other"));

    auto run = loadRunArgument(cl.positional().first());
    if (!run) {
        return cl.fail(run.error().message);
    }
    const MetricHistory history = RunBranches::completeHistory(*run);
    const auto rows = cl.isSet("all-segments") ? HistoryTable::Rows::AllSegments
                                               : HistoryTable::Rows::LatestPerEpoch;
    if (cl.json()) {
        auto j = nlohmann::ordered_json::parse(HistoryTable::toJson(history, rows), nullptr, false);
        if (j.is_object())
            j["layout"] = run->layout;
        Console::json(j);
    } else if (cl.isSet("csv"))
        Console::out(HistoryTable::toCsv(history, rows));
    else
        Console::out(HistoryTable::toText(history, rows));
    for (const auto& p : history.problems)
        Console::err("warning: " + p.message + "\n");
    return history.problems.empty() ? ExitOk : ExitProblems;
}

} // namespace ckpt::cli
