#include "lightning/LightningMetricsCsv.h"

#include "io/RegularFile.h"

#include <charconv>
#include <cmath>
#include <string_view>
#include <vector>

namespace ckpt {

namespace {

std::vector<std::string_view> cells(std::string_view line)
{
    std::vector<std::string_view> out;
    std::size_t start = 0;
    for (;;) {
        const auto comma = line.find(',', start);
        out.push_back(line.substr(start, comma == std::string_view::npos ? comma : comma - start));
        if (comma == std::string_view::npos)
            return out;
        start = comma + 1;
    }
}

std::optional<double> number(std::string_view text)
{
    double v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

void badRow(HistoryFragment& f, int line, const std::string& what)
{
    f.problems.push_back(
        Problem{ProblemKind::BadLog,
                f.path + ":" + std::to_string(line) + ": " + what + "; the row is skipped.", f.path,
                std::nullopt});
}

} // namespace

HistoryFragment LightningMetricsCsv::read(const std::string& path, bool bySteps)
{
    auto text = RegularFile::read(path, RegularFile::kLogLimit);
    if (!text) {
        HistoryFragment f;
        f.source = MetricSource::TrainingLog;
        f.path = path;
        f.problems.push_back(Problem{ProblemKind::BadLog,
                                     "cannot read " + text.error().message +
                                         ": the run's metric history lacks Lightning's log.",
                                     path, std::nullopt});
        return f;
    }
    return parse(*text, path, bySteps);
}

HistoryFragment LightningMetricsCsv::parse(const std::string& text, const std::string& path,
                                           bool bySteps)
{
    HistoryFragment f;
    f.source = MetricSource::TrainingLog;
    f.path = path;
    f.segments.push_back(FragmentSegment{std::nullopt, ResumeEvidence::Stated, {}, {}, 1});
    std::vector<std::string> header;
    int keyColumn = -1;
    int lineNo = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        auto nl = text.find('\n', pos);
        if (nl == std::string::npos)
            nl = text.size();
        std::string_view line(text.data() + pos, nl - pos);
        pos = nl + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        if (line.empty())
            continue;
        const auto row = cells(line);
        if (header.empty()) {
            const std::string_view key = bySteps ? "step" : "epoch";
            for (std::size_t i = 0; i < row.size(); ++i) {
                header.emplace_back(row[i]);
                if (row[i] == key)
                    keyColumn = static_cast<int>(i);
            }
            if (keyColumn < 0) {
                f.problems.push_back(Problem{ProblemKind::BadLog,
                                             path + ":1: the header has no " + std::string(key) +
                                                 " column: not a Lightning CSVLogger file.",
                                             path, std::nullopt});
                return f;
            }
            continue;
        }
        if (row.size() != header.size()) {
            badRow(f, lineNo,
                   "expected " + std::to_string(header.size()) + " cells, found " +
                       std::to_string(row.size()));
            continue;
        }
        const auto key = number(row[static_cast<std::size_t>(keyColumn)]);
        if (!key || *key < 0 || *key > 2e9 || std::floor(*key) != *key) {
            badRow(f, lineNo,
                   "the " + header[static_cast<std::size_t>(keyColumn)] +
                       " cell is not a whole number");
            continue;
        }
        std::vector<FragmentSample> samples;
        bool bad = false;
        for (std::size_t i = 0; i < row.size() && !bad; ++i) {
            if (static_cast<int>(i) == keyColumn || row[i].empty() || header[i] == "epoch" ||
                header[i] == "step")
                continue;
            const auto v = number(row[i]);
            if (!v) {
                badRow(f, lineNo, header[i] + " is not a number (\"" + std::string(row[i]) + "\")");
                bad = true;
                break;
            }
            FragmentSample s;
            s.epoch = static_cast<int>(*key) + (bySteps ? 1 : 0);
            s.sample = MetricSample{header[i], *v, MetricSource::TrainingLog};
            samples.push_back(std::move(s));
        }
        if (!bad)
            f.samples.insert(f.samples.end(), samples.begin(), samples.end());
    }
    return f;
}

} // namespace ckpt
