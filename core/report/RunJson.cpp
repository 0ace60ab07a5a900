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

// The value with non-finite numbers, at any depth, as null.
Json finiteOnly(const Json& v)
{
    if (v.is_number_float() && !std::isfinite(v.get<double>()))
        return Json(nullptr);
    if (v.is_object()) {
        Json out = Json::object();
        for (const auto& [k, item] : v.items())
            out[k] = finiteOnly(item);
        return out;
    }
    if (v.is_array()) {
        Json out = Json::array();
        for (const auto& item : v)
            out.push_back(finiteOnly(item));
        return out;
    }
    return v;
}

} // namespace

Json RunJson::metadataToJson(const KeyValues& metadata, Json* raw)
{
    Json j = Json::object();
    for (const auto& [key, value] : metadata) {
        auto parsed = LenientJson::parse(value, {});
        const std::string name = LenientJson::validUtf8(key);
        j[name] = parsed ? finiteOnly(*parsed) : Json(LenientJson::validUtf8(value));
        // The text as written when the value above does not give it back
        // (Infinity, text that is not JSON, other spacing or escapes).
        if (raw &&
            (!parsed || j[name].dump(-1, ' ', false, Json::error_handler_t::replace) != value))
            (*raw)[name] = LenientJson::validUtf8(value);
    }
    return j;
}

Json RunJson::toJson(const EpochFile& file)
{
    Json j = Json::object();
    j["name"] = text(file.name);
    j["bytes"] = file.bytes;
    j["present"] = file.present;
    j["model"] = file.model;
    // Left out at their defaults (none, whole file): a scan of 100,000 epochs
    // prints one of these per file.
    if (file.algo != ChecksumAlgo::None || !file.checksum.empty()) {
        j["algo"] = std::string(toString(file.algo));
        j["checksum"] = text(file.checksum);
    }
    if (file.checkedBytes > 0)
        j["checked_bytes"] = file.checkedBytes;
    j["mtime_ns"] = file.mtimeNs;
    j["inode"] = file.inode;
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
    Json infoRaw = Json::object();
    j["info"] = epoch.hasRecord() ? metadataToJson(epoch.metadata, &infoRaw) : Json(nullptr);
    j["checksum"] = checksumJson(run, epoch);
    Json metrics = Json::object();
    Json nonFinite = Json::object();
    for (const auto& m : epoch.metrics) {
        const std::string name = LenientJson::validUtf8(m.name);
        metrics[name] = finiteOrNull(m.value);
        if (!std::isfinite(m.value))
            nonFinite[name] = std::isnan(m.value) ? "NaN" : m.value > 0 ? "Infinity" : "-Infinity";
    }
    j["metrics"] = std::move(metrics);
    j["problems"] = toJson(epoch.problems);
    // Added in protocol 1 for remote clients (older readers skip them): what
    // the window shows of a local epoch, so that a far one looks the same.
    j["first_save"] = epoch.firstSave;
    j["elapsed"] =
        epoch.elapsed && std::isfinite(*epoch.elapsed) ? Json(*epoch.elapsed) : Json(nullptr);
    j["saved_at"] = pathOrNull(epoch.savedAt);
    j["monitored"] = pathOrNull(epoch.monitored);
    Json files = Json::array();
    for (const EpochFile& f : epoch.files)
        files.push_back(toJson(f));
    j["files"] = std::move(files);
    // Notes a layout keeps without a record of the format's own (Keras' file
    // name template, Caffe2's node count): "info" stays null for those.
    if (!epoch.hasRecord() && !epoch.metadata.empty())
        j["metadata"] = metadataToJson(epoch.metadata, &infoRaw);
    if (!nonFinite.empty())
        j["metrics_nonfinite"] = std::move(nonFinite);
    if (!infoRaw.empty())
        j["info_raw"] = std::move(infoRaw);
    return j;
}

namespace {

constexpr auto kReplace = Json::error_handler_t::replace;

std::string compact(const Json& j)
{
    return j.dump(-1, ' ', false, kReplace);
}

} // namespace

void RunJson::append(const Run& run, std::string& out, const Json& extra)
{
    Json head = headJson(run);
    for (const auto& [key, value] : extra.items())
        head[key] = value;
    out += compact(head);
    out.pop_back(); // the closing brace: the epochs follow, one per line
    out += ",\n\"epochs\": [";
    for (std::size_t i = 0; i < run.epochs.size(); ++i) {
        out += i == 0 ? "\n" : ",\n";
        out += compact(toJson(run, run.epochs[i]));
    }
    out += "],\n\"problems\": ";
    out += compact(toJson(run.problems));
    out += '}';
}

Json RunJson::headJson(const Run& run)
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
    Json inProgressEpochs = Json::array();
    for (const auto& item : run.inProgress) {
        inProgress.push_back(text(item.path));
        inProgressEpochs.push_back(optional(item.epoch));
    }
    j["in_progress"] = std::move(inProgress);
    j["in_progress_epochs"] = std::move(inProgressEpochs);
    j["model_bytes_total"] = run.totalModelBytes();
    return j;
}

Json RunJson::toJson(const Run& run)
{
    Json j = headJson(run);
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
