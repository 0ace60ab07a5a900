#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "RunArgument.h"
#include "RunPrinter.h"
#include "liveness/Liveness.h"
#include "report/RunJson.h"
#include "scan/Scanner.h"

#include <QDir>

#include <future>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ckpt::cli {

namespace {

bool hasErrors(const Run& run)
{
    for (const auto& p : run.allProblems())
        if (!isWarningOnly(p.kind))
            return true;
    return false;
}

// One run as `scan --json` prints it, appended to `text`, liveness assessed once
// more at print time (with the problems made to agree); true when it has problems.
bool renderJson(Run& run, std::string& text)
{
    const LiveState live = Liveness::settle(run);
    RunJson::append(run, text, {{"liveness", std::string(toString(live))}});
    return hasErrors(run);
}

// Writes the runs in order while two threads render them: runs are printed
// sorted, so printing starts once the scan has ended, and rendering is most
// of it. At most about kGroupEpochs epochs' text is held at a time, in buffers
// kept from group to group and sized ahead: memory first touched is page
// faults, the largest cost of rendering on a VM.
bool printJson(std::vector<Run>& runs, bool& firstRun)
{
    constexpr std::size_t kGroupEpochs = 2000;
    constexpr std::size_t kEpochBytes = 1024; // a CANDLE epoch prints ~750 B
    bool problems = false;
    std::vector<std::string> texts;
    std::vector<char> bad;
    for (std::size_t from = 0; from < runs.size();) {
        std::size_t to = from;
        for (std::size_t epochs = 0; to < runs.size() && (to == from || epochs < kGroupEpochs);
             ++to)
            epochs += runs[to].epochs.size();
        if (texts.size() < to - from)
            texts.resize(to - from);
        bad.assign(to - from, 0);
        const auto renderEvery = [&](std::size_t first) {
            for (std::size_t i = first; i < to - from; i += 2) {
                std::string& text = texts[i];
                text.clear();
                text.reserve(runs[from + i].epochs.size() * kEpochBytes + 4096);
                text += firstRun && from + i == 0 ? "\n" : ",\n";
                bad[i] = renderJson(runs[from + i], text) ? 1 : 0;
            }
        };
        auto other =
            to - from > 1 ? std::async(std::launch::async, renderEvery, 1) : std::future<void>();
        renderEvery(0);
        if (other.valid())
            other.get();
        for (std::size_t i = 0; i < to - from; ++i) {
            Console::out(texts[i]);
            problems = problems || bad[i];
        }
        firstRun = firstRun && from == to;
        from = to;
    }
    return problems;
}

} // namespace

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

    // JSON is streamed run by run, never as one document: memory stays that of
    // the runs and of at most about 4,000 epochs' text. Its opening is printed
    // once the first folder could be scanned: a folder that cannot be leaves
    // stdout empty (exit 2, the reason on stderr), never a torn document.
    bool opened = false;
    const auto open = [&] {
        if (cl.json() && !std::exchange(opened, true))
            Console::out(Console::jsonOpening() + "\"runs\": [");
    };
    bool firstRun = true;
    bool problems = false;
    Problems walkProblems;
    std::size_t found = 0;
    const bool stream = cl.json() && cl.isSet(QStringLiteral("stream"));
    // The last folder's runs stay alive until the process ends (see below).
    std::optional<Scanner::Outcome> last;
    // --stream: called from a scanning thread, one run at a time.
    const auto onRun = [&](const Run& loaded) {
        open();
        Run run = loaded;
        std::string text;
        problems = renderJson(run, text) || problems;
        Console::out(firstRun ? "\n" : ",\n");
        firstRun = false;
        Console::out(text);
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
        open();
        for (const auto& p : outcome->walkProblems) {
            problems = problems || !isWarningOnly(p.kind);
            if (!cl.json())
                Console::err("warning: " + p.message + "\n");
        }
        walkProblems.insert(walkProblems.end(), outcome->walkProblems.begin(),
                            outcome->walkProblems.end());
        found += outcome->runs.size();
        if (stream) {
            // printed as loaded
        } else if (cl.json()) {
            problems = printJson(outcome->runs, firstRun) || problems;
        } else {
            for (Run& run : outcome->runs) {
                // Assessed once more at print time, with the problems made to agree.
                const LiveState live = Liveness::settle(run);
                problems = problems || hasErrors(run);
                Console::out(RunPrinter::describe(run, !cl.isSet(QStringLiteral("summary")),
                                                  toString(live)));
            }
        }
        if (!cl.json() && outcome->runs.empty())
            Console::err("no checkpoint runs found below " + path.string() + " (looked for " +
                         knownLayoutsText() + ")\n");
        last = std::move(outcome.value());
    }
    if (cl.json()) {
        std::string tail = "\n],\n\"walk_problems\": ";
        tail += RunJson::toJson(walkProblems)
                    .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        tail += "}\n";
        Console::out(tail);
    } else if (found > 1)
        Console::out(std::to_string(found) + " runs\n");
    // Everything is printed: end the process here, output flushed, rather than
    // free every run's structures one by one (10,000 epochs: thousands of
    // allocations) and tear down the application and libraries for nothing.
    Console::exitNow(problems ? ExitProblems : ExitOk);
}

} // namespace ckpt::cli
