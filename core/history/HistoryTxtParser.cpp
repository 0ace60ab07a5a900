#include "history/HistoryTxtParser.h"

#include "io/AtomicFile.h"
#include "json/LenientJson.h"

#include <string>

namespace ckpt {

HistoryFragment HistoryTxtParser::parse(std::string_view text, std::string_view origin)
{
    HistoryFragment out;
    out.source = MetricSource::HistoryTxt;
    out.path = std::string(origin);
    out.segments.push_back(FragmentSegment{}); // where it started is not written down

    auto problem = [&](std::string message) {
        Problem p;
        p.kind = ProblemKind::BadLog;
        p.path = out.path;
        p.message = std::move(message);
        out.problems.push_back(std::move(p));
    };

    const auto doc = LenientJson::parse(text, origin);
    if (!doc) {
        problem(doc.error().message);
        return out;
    }
    if (!doc->is_object()) {
        problem(out.path + ": expected a dict of lists, found " + doc->type_name());
        return out;
    }
    for (const auto& [key, list] : doc->items()) {
        if (!list.is_array())
            continue; // other keys (params, names) are not per-epoch values
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].is_number())
                continue; // null: no value that epoch, the index still counts
            FragmentSample s;
            s.epoch = static_cast<int>(i) + 1;
            s.sample = MetricSample{key, list[i].get<double>(), MetricSource::HistoryTxt};
            out.samples.push_back(std::move(s));
        }
    }
    return out;
}

Result<HistoryFragment> HistoryTxtParser::parseFile(const std::filesystem::path& path)
{
    auto text = readFile(path);
    if (!text)
        return text.error();
    return parse(*text, path.string());
}

} // namespace ckpt
