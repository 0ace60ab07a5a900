#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "RunArgument.h"
#include "RunPrinter.h"
#include "liveness/Liveness.h"
#include "report/RunJson.h"
#include "scan/Scanner.h"

#include <QDir>

namespace ckpt::cli {

int runScan(const QStringList& arguments)
{
    CommandLine cl(QStringLiteral("scan"), QStringLiteral("[--json] [--summary] DIR..."),
                   QStringLiteral("Finds every checkpoint run below each DIR (any folder above "
                                  "runs) and lists its epochs, links and problems.\nExit status "
                                  "1 when a run has problems."));
    cl.addOption({QStringLiteral("summary"), QStringLiteral("One line per run, no epoch table.")});
    cl.addOption({QStringLiteral("stream"),
                  QStringLiteral("With --json: print each run as soon as it is loaded (runs in "
                                 "no particular order), for a client showing the first runs "
                                 "early.")});
    cl.addOption({QStringLiteral("exit-on-eof"),
                  QStringLiteral("Stop when stdin closes (a client over ssh went away).")});
    if (auto exit = cl.parse(arguments, 1, -1))
        return *exit;
    if (cl.isSet(QStringLiteral("exit-on-eof")))
        Console::exitWhenStdinCloses();

    // JSON is streamed run by run, epoch by epoch: memory stays that of the runs.
    if (cl.json())
        Console::out(Console::jsonOpening() + "\"runs\": [");
    bool firstRun = true;
    bool problems = false;
    Problems walkProblems;
    std::size_t found = 0;
    // Assessed once more at print time, with the problems made to agree.
    const auto printJson = [&](Run& run) {
        const LiveState live = Liveness::settle(run);
        for (const auto& p : run.allProblems())
            problems = problems || !isWarningOnly(p.kind);
        Console::out(firstRun ? "\n" : ",\n");
        firstRun = false;
        RunJson::write(run, [](std::string_view chunk) { Console::out(std::string(chunk)); },
                       {{"liveness", std::string(toString(live))}});
    };
    const bool stream = cl.json() && cl.isSet(QStringLiteral("stream"));
    // Called from a scanning thread, one run at a time.
    const auto onRun = [&](const Run& loaded) {
        Run run = loaded;
        printJson(run);
    };
    for (const QString& dir : cl.positional()) {
        const std::filesystem::path path = QDir(dir).absolutePath().toStdString();
        TerminalProgress progress("scanning " + path.string());
        auto outcome = Scanner::scan(path, Scanner::Options{}, progress.progress(),
                                     stream ? std::function<void(const Run&)>(onRun)
                                            : std::function<void(const Run&)>());
        if (!outcome) {
            return cl.fail(outcome.error().message);
        }
        for (const auto& p : outcome->walkProblems) {
            problems = problems || !isWarningOnly(p.kind);
            if (!cl.json())
                Console::err("warning: " + p.message + "\n");
        }
        walkProblems.insert(walkProblems.end(), outcome->walkProblems.begin(),
                            outcome->walkProblems.end());
        found += outcome->runs.size();
        for (Run& run : outcome->runs) {
            if (stream)
                break; // printed as loaded
            if (cl.json()) {
                printJson(run);
                continue;
            }
            const LiveState live = Liveness::settle(run);
            for (const auto& p : run.allProblems())
                problems = problems || !isWarningOnly(p.kind);
            Console::out(
                RunPrinter::describe(run, !cl.isSet(QStringLiteral("summary")), toString(live)));
        }
        if (!cl.json() && outcome->runs.empty())
            Console::err("no checkpoint runs found below " + path.string() + " (looked for " +
                         knownLayoutsText() + ")\n");
    }
    if (cl.json()) {
        std::string tail = "\n],\n\"walk_problems\": ";
        tail += RunJson::toJson(walkProblems)
                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        tail += "}\n";
        Console::out(tail);
    } else if (found > 1)
        Console::out(std::to_string(found) + " runs\n");
    return problems ? ExitProblems : ExitOk;
}

} // namespace ckpt::cli
