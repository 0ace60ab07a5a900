#include "report/RunJson.h"

#include "checksum/Verifier.h"
#include "json/LenientJson.h"
#include "layout/Layout.h"

#include <cmath>

namespace ckpt {

using Json = nlohmann::ordered_json;

namespace {

template <typename T> Json optional(const std::optional<T>& v)
{
    return v ? Json(*v) : Json(nullptr);
}

// File names on Linux are bytes; JSON text must be UTF-8 (nlohmann throws on
// dumping anything else), so odd names are shown with U+FFFD.
Json text(const std::string& s)
{
    return Json(LenientJson::validUtf8(s));
}

Json pathOrNull(const std::string& path)
{
    return path.empty() ? Json(nullptr) : text(path);
}

Json finiteOnly(const Json& v)
{
    if (v.is_number_float() && !std::isfinite(v.get<double>()))
        return Json(nullptr);
    if (v.is_structured()) {
        Json out = v.is_object() ? Json::object() : Json::array();
        if (v.is_object())
            for (const auto& [k, item] : v.items())
                out[k] = finiteOnly(item);
        else
            for (const auto& item : v)
                out.push_back(finiteOnly(item));
        return out;
    }
    return v;
}

} // namespace

Json RunJson::metadataToJson(const KeyValues& metadata)
{
    Json j = Json::object();
    for (const auto& [key, value] : metadata) {
        auto parsed = LenientJson::parse(value, {});
        j[LenientJson::validUtf8(key)] =
            parsed ? finiteOnly(*parsed) : Json(LenientJson::validUtf8(value));
    }
    return j;
}

namespace {
Json finiteOrNull(double v)
{
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}
} // namespace

Json RunJson::toJson(const Problem& problem)
{
    Json j = Json::object();
    j["kind"] = std::string(toString(problem.kind));
    j["severity"] = isWarningOnly(problem.kind) ? "warning" : "error";
    j["message"] = text(problem.message);
    j["path"] = text(problem.path);
    j["epoch"] = optional(problem.epoch);
    return j;
}

Json RunJson::toJson(const Problems& problems)
{
    Json j = Json::array();
    for (const auto& p : problems)
        j.push_back(toJson(p));
    return j;
}

Json RunJson::toJson(const RunLink& link)
{
    Json j = Json::object();
    j["path"] = text(link.path);
    j["target"] = text(link.target);
    j["epoch"] = optional(link.epoch);
    j["relocated"] = link.relocated;
    j["symlink"] = link.symlink;
    return j;
}

Json RunJson::checksumJson(const Run& run, const Epoch& epoch)
{
    Json j = Json::object();
    if (const EpochFile* f = epoch.checksummedFile()) {
        j["algo"] = std::string(toString(f->algo));
        j["expected"] = f->algo == ChecksumAlgo::Crc32 ? text(f->checksum) : Json(nullptr);
        return j;
    }
    if (!Verifier::recordsNoChecksum(run, epoch))
        return Json(nullptr);
    j["algo"] = std::string(toString(ChecksumAlgo::None));
    j["expected"] = nullptr;
    return j;
}

Json RunJson::toJson(const Run& run, const Epoch& epoch)
{
    Json j = Json::object();
    j["epoch"] = epoch.number;
    j["step"] = optional(epoch.step);
    j["dir"] = text(run.pathOf(epoch));
    j["model"] = pathOrNull(run.modelPath(epoch));
    j["model_bytes"] = optional(epoch.modelBytes());
    j["info"] = epoch.hasRecord() ? metadataToJson(epoch.metadata) : Json(nullptr);
    j["checksum"] = checksumJson(run, epoch);
    Json metrics = Json::object();
    for (const auto& m : epoch.metrics)
        metrics[LenientJson::validUtf8(m.name)] = finiteOrNull(m.value);
    j["metrics"] = std::move(metrics);
    j["problems"] = toJson(epoch.problems);
    return j;
}

namespace {
constexpr auto kReplace = Json::error_handler_t::replace;
} // namespace

void RunJson::write(const Run& run, const std::function<void(std::string_view)>& sink,
                    const nlohmann::ordered_json& extra)
{
    Json head =
        toJson(Run{run.root, run.layout, {}, run.links, run.sources, run.inProgress, {}, run.dir});
    head["model_bytes_total"] = run.totalModelBytes();
    for (const auto& [key, value] : extra.items())
        head[key] = value;
    head.erase("epochs");
    head.erase("problems");
    std::string text = head.dump(-1, ' ', false, kReplace);
    text.pop_back(); // the closing brace: epochs and problems follow
    sink(text + ",\n\"epochs\": [");
    for (std::size_t i = 0; i < run.epochs.size(); ++i) {
        text = i == 0 ? "\n" : ",\n";
        text += toJson(run, run.epochs[i]).dump(-1, ' ', false, kReplace);
        sink(text);
    }
    sink("],\n\"problems\": " + toJson(run.problems).dump(-1, ' ', false, kReplace) + "}");
}

Json RunJson::toJson(const Run& run)
{
    Json j = Json::object();
    j["root"] = text(run.root);
    j["layout"] = text(run.layout);
    // Only for runs sharing a folder (their root is not a directory).
    if (!run.dir.empty())
        j["dir"] = text(run.dir);
    if (const Layout* layout = layoutOf(run))
        for (std::string_view name : layout->linkNames())
            j[std::string(name)] = optional(run.linkedEpoch(name));
    Json links = Json::object();
    for (const auto& l : run.links)
        links[l.name] = toJson(l);
    j["links"] = std::move(links);
    for (const auto& s : run.sources)
        j[s.kind] = pathOrNull(s.path);
    Json inProgress = Json::array();
    for (const auto& item : run.inProgress)
        inProgress.push_back(text(item.path));
    j["in_progress"] = std::move(inProgress);
    j["model_bytes_total"] = run.totalModelBytes();
    Json epochs = Json::array();
    for (const auto& e : run.epochs)
        epochs.push_back(toJson(run, e));
    j["epochs"] = std::move(epochs);
    j["problems"] = toJson(run.problems);
    return j;
}

Json RunJson::toJson(const Scanner::Outcome& outcome)
{
    Json runs = Json::array();
    for (const auto& run : outcome.runs)
        runs.push_back(toJson(run));
    Json j = Json::object();
    j["runs"] = std::move(runs);
    j["walk_problems"] = toJson(outcome.walkProblems);
    return j;
}

} // namespace ckpt
