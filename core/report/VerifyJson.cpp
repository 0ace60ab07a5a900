#include "report/VerifyJson.h"

namespace ckpt {

using json = nlohmann::ordered_json;

json VerifyJson::toJson(const VerifyReport& report)
{
    json runs = json::array();
    for (const RunVerdict& run : report.runs) {
        json epochs = json::array();
        for (const EpochVerdict& e : run.epochs) {
            epochs.push_back({{"epoch", e.epoch},
                              {"status", std::string(toString(e.status))},
                              {"expected", e.expected},
                              {"actual", e.actual},
                              {"bytes", e.bytes},
                              {"seconds", e.seconds},
                              {"path", e.path},
                              {"message", e.message}});
        }
        runs.push_back({{"root", run.root}, {"epochs", std::move(epochs)}});
    }
    json totals = {{"bytes", report.totals.bytes},
                   {"seconds", report.totals.seconds},
                   {"epochs", report.totals.epochs()}};
    for (std::size_t i = 0; i < kVerifyStatusCount; ++i)
        totals[std::string(toString(static_cast<VerifyStatus>(i)))] = report.totals.counts[i];
    return {{"runs", std::move(runs)}, {"totals", std::move(totals)}};
}

std::string VerifyJson::toText(const VerifyReport& report, int indent)
{
    // Paths are bytes on Linux: replace what is not UTF-8 rather than throw.
    return toJson(report).dump(indent, ' ', false, json::error_handler_t::replace);
}

Result<VerifyReport> VerifyJson::fromText(std::string_view text, std::string_view origin)
{
    const std::string where(origin);
    try {
        const json doc = json::parse(text);
        VerifyReport report;
        for (const json& run : doc.at("runs")) {
            RunVerdict rv;
            rv.root = run.at("root").get<std::string>();
            for (const json& e : run.at("epochs")) {
                EpochVerdict v;
                v.root = rv.root;
                v.epoch = e.at("epoch").get<int>();
                const auto status = verifyStatusFromString(e.at("status").get<std::string>());
                if (!status)
                    return Error::at(where, "unknown status \"" +
                                                e.at("status").get<std::string>() + "\"");
                v.status = *status;
                v.expected = e.value("expected", "");
                v.actual = e.value("actual", "");
                v.bytes = e.value("bytes", std::uint64_t{0});
                v.seconds = e.value("seconds", 0.0);
                v.path = e.value("path", "");
                v.message = e.value("message", "");
                ++report.totals.counts[static_cast<std::size_t>(v.status)];
                rv.epochs.push_back(std::move(v));
            }
            report.runs.push_back(std::move(rv));
        }
        const json& totals = doc.at("totals");
        report.totals.bytes = totals.value("bytes", std::uint64_t{0});
        report.totals.seconds = totals.value("seconds", 0.0);
        return report;
    } catch (const json::exception& e) {
        return Error::at(where, std::string("not a verification report: ") + e.what());
    }
}

} // namespace ckpt
