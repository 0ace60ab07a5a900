#include "report/HistoryTable.h"

#include "history/LocalTime.h"
#include "history/NumberText.h"
#include "report/CsvWriter.h"
#include "report/Format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

namespace ckpt {

std::vector<const HistoryRow*> HistoryTable::select(const MetricHistory& history, Rows rows)
{
    if (rows == Rows::LatestPerEpoch)
        return history.latestPerEpoch();
    std::vector<const HistoryRow*> all;
    all.reserve(history.rows.size());
    for (const auto& row : history.rows)
        all.push_back(&row);
    return all;
}

std::string HistoryTable::toCsv(const MetricHistory& history, Rows rows)
{
    const auto metrics = history.metricNames();
    CsvWriter csv;
    std::vector<std::string> fields{"epoch", "segment", "wall_time"};
    fields.insert(fields.end(), metrics.begin(), metrics.end());
    csv.addRow(fields);
    for (const HistoryRow* row : select(history, rows)) {
        fields = {std::to_string(row->epoch), std::to_string(row->segment),
                  CsvWriter::number(row->wallTime)};
        for (const auto& m : metrics)
            fields.push_back(CsvWriter::number(row->value(m)));
        csv.addRow(fields);
    }
    return csv.text();
}

std::string HistoryTable::toJson(const MetricHistory& history, Rows rows)
{
    using Json = nlohmann::ordered_json;
    const auto metrics = history.metricNames();
    auto number = [](std::optional<double> v) -> Json {
        if (!v || !std::isfinite(*v))
            return nullptr;
        return *v;
    };
    auto integer = [](std::optional<int> v) -> Json {
        if (!v)
            return nullptr;
        return *v;
    };

    Json doc = Json::object();
    doc["metrics"] = metrics;
    Json segments = Json::array();
    for (const auto& s : history.segments) {
        Json j = Json::object();
        j["index"] = s.index;
        j["resumed_from"] = integer(s.resumedFrom);
        j["first_epoch"] = integer(s.firstEpoch);
        j["last_epoch"] = integer(s.lastEpoch);
        j["started_at"] = s.startedAt.empty() ? Json(nullptr) : Json(s.startedAt);
        segments.push_back(std::move(j));
    }
    doc["segments"] = std::move(segments);
    Json list = Json::array();
    for (const HistoryRow* row : select(history, rows)) {
        Json j = Json::object();
        j["epoch"] = row->epoch;
        j["segment"] = row->segment;
        j["wall_time"] = number(row->wallTime);
        Json values = Json::object();
        Json sources = Json::object();
        for (const auto& m : metrics) {
            const auto v = row->value(m);
            if (!v)
                continue;
            values[m] = number(v);
            sources[m] = std::string(toString(*row->sourceOf(m)));
        }
        j["values"] = std::move(values);
        j["sources"] = std::move(sources);
        list.push_back(std::move(j));
    }
    doc["rows"] = std::move(list);
    return doc.dump(2) + "\n";
}

std::string HistoryTable::toText(const MetricHistory& history, Rows rows)
{
    const auto metrics = history.metricNames();
    std::vector<std::vector<std::string>> cells;
    std::vector<std::string> header{"epoch", "segment", "wall time"};
    header.insert(header.end(), metrics.begin(), metrics.end());
    cells.push_back(header);
    for (const HistoryRow* row : select(history, rows)) {
        std::vector<std::string> line{std::to_string(row->epoch), std::to_string(row->segment),
                                      row->wallTime ? LocalTime::format(*row->wallTime) : "-"};
        for (const auto& m : metrics) {
            const auto v = row->value(m);
            line.push_back(v ? Format::number(*v) : "-");
        }
        cells.push_back(std::move(line));
    }

    std::vector<std::size_t> width(header.size(), 0);
    for (const auto& line : cells)
        for (std::size_t i = 0; i < line.size(); ++i)
            width[i] = std::max(width[i], line[i].size());

    std::string out;
    for (const auto& line : cells) {
        std::string text;
        for (std::size_t i = 0; i < line.size(); ++i) {
            if (i > 0)
                text += "  ";
            const std::string pad(width[i] - line[i].size(), ' ');
            // Numbers right-aligned, the wall time column left-aligned.
            text += i == 2 ? line[i] + pad : pad + line[i];
        }
        while (!text.empty() && text.back() == ' ')
            text.pop_back();
        out += text + '\n';
    }
    return out;
}

} // namespace ckpt
