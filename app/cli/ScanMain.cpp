#include "ScanMain.h"

#include "Console.h"
#include "ExitCode.h"
#include "RunPrinter.h"
#include "layout/Layout.h"
#include "liveness/Liveness.h"
#include "report/RunJson.h"
#include "scan/Scanner.h"

#include <cstring>
#include <filesystem>
#include <future>
#include <optional>
#include <string_view>
#include <utility>

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

std::string knownLayoutsText()
{
    std::string names;
    for (const Layout* layout : builtinLayouts())
        names += (names.empty() ? "" : ", ") + std::string(layout->name());
    return "runs of every known layout: " + names;
}

std::string absolutePath(const std::string& dir)
{
    namespace fs = std::filesystem;
    fs::path path(dir.empty() ? std::string(".") : dir);
    if (path.is_relative()) {
        std::error_code ec;
        const fs::path cwd = fs::current_path(ec);
        path = (ec ? fs::path("/") : cwd) / path;
    }
    std::string clean = path.lexically_normal().string();
    while (clean.size() > 1 && clean.back() == '/')
        clean.pop_back();
    return clean;
}

bool parseScanArguments(int argc, const char* const* argv, ScanRequest& request)
{
    request = {};
    for (int i = 0; i < argc; ++i) {
        const std::string_view arg(argv[i]);
        if (arg == "--json")
            request.json = true;
        else if (arg == "--summary")
            request.summary = true;
        else if (arg == "--stream")
            request.stream = true;
        else if (arg == "--exit-on-eof")
            request.exitOnEof = true;
        else if (!arg.empty() && arg.front() != '-')
            request.dirs.emplace_back(arg);
        else
            return false;
    }
    return !request.dirs.empty();
}

void scanMain(const ScanRequest& request)
{
    if (request.exitOnEof)
        Console::exitWhenStdinCloses();

    // JSON is streamed run by run, never as one document: memory stays that of
    // the runs and of at most about 4,000 epochs' text. Its opening is printed
    // once the first folder could be scanned: a folder that cannot be leaves
    // stdout empty (exit 2, the reason on stderr), never a torn document.
    bool opened = false;
    const auto open = [&] {
        if (request.json && !std::exchange(opened, true))
            Console::out(Console::jsonOpening() + "\"runs\": [");
    };
    bool firstRun = true;
    bool problems = false;
    Problems walkProblems;
    std::size_t found = 0;
    const bool stream = request.json && request.stream;
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
    for (const std::string& dir : request.dirs) {
        const std::filesystem::path path = absolutePath(dir);
        TerminalProgress progress("scanning " + path.string());
        auto outcome = Scanner::scan(path, Scanner::Options{}, progress.progress(),
                                     stream ? std::function<void(const Run&)>(onRun)
                                            : std::function<void(const Run&)>());
        if (!outcome) {
            Console::err("ckpt scan: " + outcome.error().message + "\n");
            Console::exitNow(ExitUsage);
        }
        open();
        for (const auto& p : outcome->walkProblems) {
            problems = problems || !isWarningOnly(p.kind);
            if (!request.json)
                Console::err("warning: " + p.message + "\n");
        }
        walkProblems.insert(walkProblems.end(), outcome->walkProblems.begin(),
                            outcome->walkProblems.end());
        found += outcome->runs.size();
        if (stream) {
            // printed as loaded
        } else if (request.json) {
            problems = printJson(outcome->runs, firstRun) || problems;
        } else {
            for (Run& run : outcome->runs) {
                // Assessed once more at print time, with the problems made to agree.
                const LiveState live = Liveness::settle(run);
                problems = problems || hasErrors(run);
                Console::out(RunPrinter::describe(run, !request.summary, toString(live)));
            }
        }
        if (!request.json && outcome->runs.empty())
            Console::err("no checkpoint runs found below " + path.string() + " (looked for " +
                         knownLayoutsText() + ")\n");
        last = std::move(outcome.value());
    }
    if (request.json) {
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
