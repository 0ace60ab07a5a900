#include "history/TrainingLogParser.h"

#include "history/LineProblems.h"
#include "history/NumberText.h"
#include "history/TextLines.h"
#include "io/AtomicFile.h"

#include <algorithm>
#include <string>
#include <vector>

namespace ckpt {

namespace {

// Splits one CSV line; quotes around a field are dropped (Keras quotes only
// list-valued cells, which are not numbers anyway).
void splitCsv(std::string_view line, std::vector<std::string_view>& fields)
{
    fields.clear();
    std::size_t pos = 0;
    while (true) {
        if (pos < line.size() && line[pos] == '"') {
            std::size_t end = pos + 1;
            while (end < line.size()) {
                if (line[end] == '"') {
                    if (end + 1 < line.size() && line[end + 1] == '"') {
                        end += 2;
                        continue;
                    }
                    break;
                }
                ++end;
            }
            fields.push_back(line.substr(pos + 1, end - pos - 1));
            pos = line.find(',', end);
        } else {
            const std::size_t comma = line.find(',', pos);
            fields.push_back(
                line.substr(pos, comma == std::string_view::npos ? comma : comma - pos));
            pos = comma;
        }
        if (pos == std::string_view::npos)
            break;
        ++pos;
    }
}

} // namespace

HistoryFragment TrainingLogParser::parse(std::string_view text, std::string_view origin)
{
    HistoryFragment out;
    out.source = MetricSource::TrainingLog;
    out.path = std::string(origin);
    LineProblems problems(out.problems, out.path);

    std::vector<std::string> keys;
    bool haveHeader = false;
    bool blockStart = false;
    int previousEpoch = -1;
    std::vector<std::string_view> fields;
    std::string bad;

    const auto lineCount = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    TextLines lines(text);
    std::string_view line;
    while (lines.next(line)) {
        if (!lines.terminated())
            break; // being written
        if (NumberText::trim(line).empty())
            continue;
        splitCsv(line, fields);
        if (NumberText::trim(fields.front()) == "epoch") {
            keys.clear();
            for (std::size_t i = 1; i < fields.size(); ++i)
                keys.emplace_back(NumberText::trim(fields[i]));
            haveHeader = true;
            blockStart = true;
            if (out.samples.empty()) // one sample per cell: grow once, not by doubling
                out.samples.reserve(lineCount * keys.size());
            continue;
        }
        if (!haveHeader) {
            problems.add(lines.number(), "row before the header line \"epoch,...\"");
            continue;
        }
        if (fields.size() != keys.size() + 1) {
            problems.add(lines.number(), "expected " + std::to_string(keys.size() + 1) +
                                             " fields as in the header, found " +
                                             std::to_string(fields.size()));
            continue;
        }
        const auto epoch0 = NumberText::toInt(fields.front());
        if (!epoch0 || *epoch0 < 0) {
            problems.add(lines.number(),
                         "epoch \"" + std::string(fields.front()) + "\" is not a number >= 0");
            continue;
        }
        if (blockStart || *epoch0 <= previousEpoch) {
            FragmentSegment segment;
            if (*epoch0 > 0)
                segment.resumedFrom = *epoch0;
            segment.evidence = ResumeEvidence::Stated;
            segment.line = static_cast<int>(lines.number());
            out.segments.push_back(std::move(segment));
            blockStart = false;
        }
        previousEpoch = *epoch0;

        bad.clear();
        for (std::size_t i = 0; i < keys.size(); ++i) {
            const std::string_view cell = NumberText::trim(fields[i + 1]);
            if (cell.empty() || cell == "NA")
                continue;
            const auto value = NumberText::toDouble(cell);
            if (!value) {
                bad += bad.empty() ? "" : ", ";
                bad += keys[i] + "=\"" + std::string(cell) + "\"";
                continue;
            }
            FragmentSample s;
            s.segment = static_cast<int>(out.segments.size()) - 1;
            s.epoch = *epoch0 + 1;
            s.sample = MetricSample{keys[i], *value, MetricSource::TrainingLog};
            out.samples.push_back(std::move(s));
        }
        if (!bad.empty())
            problems.add(lines.number(), "not a number: " + bad);
    }
    problems.finish();
    return out;
}

Result<HistoryFragment> TrainingLogParser::parseFile(const std::filesystem::path& path)
{
    auto text = readFile(path);
    if (!text)
        return text.error();
    return parse(*text, path.string());
}

} // namespace ckpt
