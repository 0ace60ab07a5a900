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
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
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

// One run as `scan --json` prints it, in place of what `text` held, liveness
// assessed once more at print time (with the problems made to agree); true
// when it has problems.
bool renderJson(Run& run, std::string& text)
{
    const LiveState live = Liveness::settle(run);
    text.clear();
    RunJson::append(run, text, {{"liveness", std::string(toString(live))}});
    return hasErrors(run);
}

// `scan --json` of one folder, run by run: each run is rendered on the thread
// that loaded it as soon as it is loaded, then dropped, and its text printed
// when its turn in root order comes. The walk gives the order (setOrder) long
// before the last run is loaded, so a run printed out of turn waits as text only
// while a run before it is still loading. Memory is the runs in flight and the
// waiting text; rendering runs on every loader thread, beside the loading.
class OrderedJson
{
public:
    OrderedJson(bool& firstRun, std::function<void()> open)
        : m_firstRun(firstRun), m_open(std::move(open))
    {}

    void setOrder(const std::vector<std::string>& roots)
    {
        std::lock_guard lock(m_mutex);
        m_order = roots;
        printWaiting();
    }

    // From a loader thread, concurrently with the others.
    void consume(Run&& loaded)
    {
        // Text kept from run to run: its memory is reused.
        thread_local std::string text;
        std::string root;
        bool bad = false;
        {
            Run run = std::move(loaded);
            bad = renderJson(run, text);
            root = std::move(run.root);
            EpochList::recycle(std::move(run.epochs)); // for the next run this thread loads
        }
        std::lock_guard lock(m_mutex);
        m_problems = m_problems || bad;
        if (!m_seen.insert(root).second)
            return; // an enclosing-run drop and the walk found the same run
        if (m_next < m_order.size() && m_order[m_next] == root) {
            print(text);
            ++m_next;
            printWaiting();
        } else {
            m_waiting.emplace(std::move(root), text);
        }
    }

    // Every run is loaded: prints what still waits (a run whose turn never came
    // because one before it failed to load), in root order; true when a run
    // printed has problems.
    bool finish()
    {
        std::lock_guard lock(m_mutex);
        for (const auto& [root, text] : m_waiting)
            print(text);
        m_waiting.clear();
        return m_problems;
    }

private:
    void printWaiting()
    {
        while (m_next < m_order.size()) {
            const auto it = m_waiting.find(m_order[m_next]);
            if (it == m_waiting.end())
                return;
            print(it->second);
            m_waiting.erase(it);
            ++m_next;
        }
    }

    void print(const std::string& text)
    {
        m_open();
        Console::out(std::exchange(m_firstRun, false) ? "\n" : ",\n");
        Console::out(text);
    }

    bool& m_firstRun;
    std::function<void()> m_open;
    std::mutex m_mutex;
    std::vector<std::string> m_order;
    std::size_t m_next = 0;
    std::map<std::string, std::string> m_waiting;
    std::set<std::string> m_seen;
    bool m_problems = false;
};

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
        OrderedJson ordered(firstRun, open);
        Scanner::Options options;
        if (request.json && !stream) {
            options.consume = [&](Run&& run) { ordered.consume(std::move(run)); };
            options.rootsFound = [&](const std::vector<std::string>& roots) {
                ordered.setOrder(roots);
            };
        }
        auto outcome = Scanner::scan(path, options, progress.progress(),
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
            problems = ordered.finish() || problems;
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
