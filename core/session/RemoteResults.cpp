#include "session/RemoteResults.h"

#include "report/VerifyJson.h"

#include <cmath>
#include <limits>

namespace ckpt {

using Json = nlohmann::ordered_json;

namespace {
std::optional<int> optionalInt(const Json& j, const char* key)
{
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<int>();
}

MetricSource sourceNamed(const std::string& name)
{
    for (const MetricSource s : {MetricSource::TrainingLog, MetricSource::CkptLog,
                                 MetricSource::HistoryTxt, MetricSource::CkptInfo})
        if (toString(s) == name)
            return s;
    return MetricSource::CkptInfo;
}
} // namespace

Result<MetricHistory> RemoteResults::history(const Json& document, const std::string& origin)
{
    try {
        MetricHistory history;
        for (const Json& s : document.at("segments")) {
            HistorySegment segment;
            segment.index = s.value("index", 0);
            segment.resumedFrom = optionalInt(s, "resumed_from");
            segment.firstEpoch = optionalInt(s, "first_epoch");
            segment.lastEpoch = optionalInt(s, "last_epoch");
            if (const auto at = s.find("started_at"); at != s.end() && at->is_string())
                segment.startedAt = at->get<std::string>();
            history.segments.push_back(std::move(segment));
        }
        for (const Json& r : document.at("rows")) {
            HistoryRow row;
            row.epoch = r.at("epoch").get<int>();
            row.segment = r.value("segment", 0);
            if (const auto t = r.find("wall_time"); t != r.end() && t->is_number())
                row.wallTime = t->get<double>();
            const Json& sources = r.contains("sources") ? r.at("sources") : Json::object();
            for (const auto& [metric, value] : r.at("values").items()) {
                MetricSample sample;
                sample.metric = metric;
                sample.value = value.is_number() ? value.get<double>()
                                                 : std::numeric_limits<double>::quiet_NaN();
                if (const auto s = sources.find(metric); s != sources.end() && s->is_string())
                    sample.source = sourceNamed(s->get<std::string>());
                row.samples.push_back(std::move(sample));
            }
            history.rows.push_back(std::move(row));
        }
        return history;
    } catch (const Json::exception& e) {
        return Error::at(origin, std::string("not a history from ckpt: ") + e.what());
    }
}

Result<RemoteResults::Verification> RemoteResults::verification(const Json& document,
                                                                const std::string& origin)
{
    auto report = VerifyJson::fromText(document.dump(), origin);
    if (!report)
        return report.error();
    Verification out;
    for (const RunVerdict& run : report->runs) {
        VerifySession::Verdicts& verdicts = out.verdicts[run.root];
        for (const EpochVerdict& e : run.epochs)
            verdicts[e.epoch] = ChecksumVerdict{VerifySession::stateOf(e.status),
                                                QString::fromStdString(e.expected),
                                                QString::fromStdString(e.actual)};
    }
    out.summary = VerifySession::summary(*report, {});
    return out;
}

} // namespace ckpt
