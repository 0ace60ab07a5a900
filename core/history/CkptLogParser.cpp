#include "history/CkptLogParser.h"

#include "history/LineProblems.h"
#include "history/LocalTime.h"
#include "history/NumberText.h"
#include "history/TextLines.h"
#include "io/AtomicFile.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace ckpt {

namespace {

constexpr std::string_view kRestartTag = "CANDLE restart()";
constexpr std::array<std::string_view, 4> kTags{"CandleCheckpoint", "CandleCkpt", "CkptStudio",
                                                kRestartTag};

struct Anchor
{
    int position = 0;
    int epoch = 0;
};

// A process being read. Samples hold their position in the process until the
// end, when the numbering (restart epoch, anchors) is known.
struct Process
{
    FragmentSegment segment;
    bool initialized = false;      // "Callback initialized." seen
    bool startedByRestart = false; // opened by a "CANDLE restart():" line
    int position = 0;              // epochs seen so far
    bool open = false;             // the current epoch's save/metrics are still coming
    std::vector<Anchor> anchors;
};

bool isContinuation(std::string_view line)
{
    const char c = line.front();
    return c == ' ' || c == '\t' || c == '{' || c == '}' || c == '[' || c == ']';
}

std::optional<int> trailingEpochDir(std::string_view path)
{
    while (!path.empty() &&
           (path.back() == '\'' || path.back() == '"' || path.back() == '/' || path.back() == ' '))
        path.remove_suffix(1);
    const auto slash = path.rfind('/');
    if (slash == std::string_view::npos)
        return std::nullopt;
    const std::string_view name = path.substr(slash + 1);
    const std::string_view parent = path.substr(0, slash);
    if (!parent.ends_with("epochs") || name.empty() ||
        name.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
    return NumberText::toInt(name);
}

// The integer right after `key` in `message`, if any.
std::optional<int> intAfter(std::string_view message, std::string_view key)
{
    const auto at = message.find(key);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = message.substr(at + key.size());
    const auto end = rest.find_first_not_of("0123456789");
    return NumberText::toInt(rest.substr(0, end));
}

class Reader
{
public:
    explicit Reader(HistoryFragment& out) : m_out(out), m_problems(out.problems, out.path) {}

    void run(std::string_view text)
    {
        TextLines lines(text);
        std::string_view line;
        while (lines.next(line)) {
            if (!lines.terminated())
                break; // being written
            if (NumberText::trim(line).empty() || isContinuation(line))
                continue;
            readLine(line, static_cast<int>(lines.number()));
        }
        finish();
        m_problems.finish();
    }

private:
    void readLine(std::string_view line, int number)
    {
        std::size_t used = 0;
        const auto wall = LocalTime::parse(line, &used);
        if (!wall) {
            m_problems.add(number, "not a ckpt.log line (expected \"YYYY-MM-DD HH:MM:SS,mmm "
                                   "CandleCheckpoint: ...\")");
            return;
        }
        std::string_view rest = line.substr(used);
        if (rest.empty() || rest.front() != ' ')
            return bad(number);
        rest.remove_prefix(1);
        std::string_view tag = rest;
        std::string_view message;
        if (const auto colon = rest.find(": "); colon != std::string_view::npos) {
            tag = rest.substr(0, colon);
            message = rest.substr(colon + 2);
        } else if (rest.ends_with(':')) {
            tag = rest.substr(0, rest.size() - 1);
        }
        bool known = false;
        for (const auto t : kTags)
            known = known || tag == t;
        if (!known)
            return; // another logger sharing the file: not ours to judge
        m_line = number;
        m_wall = *wall;
        m_stamp = line.substr(0, used);
        onMessage(tag, message);
    }

    void bad(int number)
    {
        m_problems.add(number, "timestamp not followed by \" <Tag>: <message>\"");
    }

    Process& current()
    {
        if (m_processes.empty())
            startProcess(ResumeEvidence::Unknown); // the log was cut: its start is lost
        return m_processes.back();
    }

    Process& startProcess(ResumeEvidence evidence)
    {
        Process p;
        p.segment.evidence = evidence;
        p.segment.startedAt = std::string(m_stamp);
        p.segment.startWall = m_wall;
        p.segment.line = m_line;
        m_processes.push_back(std::move(p));
        return m_processes.back();
    }

    void onMessage(std::string_view tag, std::string_view message)
    {
        if (tag == kRestartTag) {
            // The oldest writer restores before the callback of the new process
            // exists: these lines open the next process.
            if (m_processes.empty() || !m_processes.back().startedByRestart ||
                m_processes.back().initialized) {
                startProcess(ResumeEvidence::Unknown).startedByRestart = true;
            }
        }
        if (message == "Callback initialized.") {
            Process* p = m_processes.empty() ? nullptr : &m_processes.back();
            if (p && p->startedByRestart && !p->initialized && p->position == 0)
                p->initialized = true;
            else
                startProcess(ResumeEvidence::Stated).initialized = true;
            return;
        }
        if (message.starts_with("restarting")) {
            Process& p = current();
            auto epoch = intAfter(message, "restarting from epoch: ");
            if (!epoch)
                epoch = intAfter(message, "epoch=");
            if (epoch) {
                p.segment.resumedFrom = *epoch;
                p.segment.evidence = ResumeEvidence::Stated;
            } else if (p.segment.evidence != ResumeEvidence::Stated || !p.segment.resumedFrom) {
                p.segment.evidence = ResumeEvidence::Unknown; // restarting, from where is to come
            }
            return;
        }
        if (message.starts_with("metrics: "))
            return onMetrics(message.substr(9));
        if (message.starts_with("model saving disabled until epoch")) {
            Process& p = current();
            ++p.position;
            p.open = false;
            return;
        }
        if (message.starts_with("not writing this epoch")) {
            Process& p = current();
            if (!p.open)
                ++p.position;
            p.open = false;
            return;
        }
        if (message.starts_with("writing final epoch")) {
            Process& p = current();
            openEpoch(p);
            if (const auto epoch = intAfter(message, "writing final epoch "))
                p.anchors.push_back({p.position, *epoch});
            return;
        }
        if (message.starts_with("writing model to:")) {
            openEpoch(current());
            return;
        }
        if (message.starts_with("model wrote:"))
            return onModelWrote(message);
        if (message.starts_with("rename:")) {
            Process& p = current();
            const auto arrow = message.rfind("->");
            if (arrow != std::string_view::npos && p.position > 0)
                if (const auto epoch = trailingEpochDir(message.substr(arrow + 2)))
                    p.anchors.push_back({p.position, *epoch});
            return;
        }
    }

    static void openEpoch(Process& p)
    {
        if (!p.open) {
            ++p.position;
            p.open = true;
        }
    }

    void onMetrics(std::string_view body)
    {
        // "<name>: current=<value> <sym> last=<value>". A line we cannot read
        // still marks an epoch: counting it keeps the next epochs right.
        Process& p = current();
        ++p.position;
        p.open = true;
        const auto sep = body.find(": current=");
        if (sep == std::string_view::npos) {
            m_problems.add(m_line, "metrics line without \"<name>: current=<value>\"");
            return;
        }
        std::string_view valueText = body.substr(sep + 10);
        valueText = valueText.substr(0, valueText.find(' '));
        const auto value = NumberText::toDouble(valueText);
        if (!value) {
            m_problems.add(m_line,
                           "metrics value \"" + std::string(valueText) + "\" is not a number");
            return;
        }
        addSample(std::string(NumberText::trim(body.substr(0, sep))), *value);
    }

    void onModelWrote(std::string_view message)
    {
        // "model wrote: X MB in Y seconds (Z MB/s)."
        Process& p = current();
        openEpoch(p);
        std::optional<double> rate;
        const auto paren = message.find('(');
        if (paren != std::string_view::npos) {
            std::string_view z = message.substr(paren + 1);
            rate = NumberText::toDouble(z.substr(0, z.find(' ')));
        }
        if (!rate) {
            m_problems.add(m_line, "\"model wrote:\" line without \"(<rate> MB/s)\"");
        } else {
            addSample("write_mb_s", *rate);
        }
        p.open = false;
    }

    void addSample(std::string metric, double value)
    {
        FragmentSample s;
        s.segment = static_cast<int>(m_processes.size()) - 1;
        s.epoch = m_processes.back().position; // a position until finish()
        s.wallTime = m_wall;
        s.sample = MetricSample{std::move(metric), value, MetricSource::CkptLog};
        m_out.samples.push_back(std::move(s));
    }

    void finish()
    {
        for (auto& p : m_processes) {
            if (p.segment.evidence == ResumeEvidence::Unknown && !p.anchors.empty()) {
                const int offset = p.anchors.front().epoch - p.anchors.front().position;
                if (offset > 0)
                    p.segment.resumedFrom = offset;
                p.segment.evidence = ResumeEvidence::Guessed;
            }
        }
        std::vector<std::size_t> nextAnchor(m_processes.size(), 0);
        for (auto& s : m_out.samples) {
            const Process& p = m_processes[static_cast<std::size_t>(s.segment)];
            int offset = p.segment.resumedFrom.value_or(0);
            if (!p.anchors.empty()) {
                // Samples come in order: walk the anchors along.
                std::size_t& a = nextAnchor[static_cast<std::size_t>(s.segment)];
                while (a + 1 < p.anchors.size() && p.anchors[a + 1].position <= s.epoch)
                    ++a;
                offset = p.anchors[a].epoch - p.anchors[a].position;
            }
            s.epoch += offset;
        }
        for (auto& p : m_processes)
            m_out.segments.push_back(std::move(p.segment));
    }

    HistoryFragment& m_out;
    LineProblems m_problems;
    std::vector<Process> m_processes;
    int m_line = 0;
    double m_wall = 0.0;
    std::string_view m_stamp;
};

} // namespace

HistoryFragment CkptLogParser::parse(std::string_view text, std::string_view origin)
{
    HistoryFragment out;
    out.source = MetricSource::CkptLog;
    out.path = std::string(origin);
    Reader reader(out);
    reader.run(text);
    return out;
}

Result<HistoryFragment> CkptLogParser::parseFile(const std::filesystem::path& path)
{
    auto text = readFile(path);
    if (!text)
        return text.error();
    return parse(*text, path.string());
}

} // namespace ckpt
