#include "report/RunJson.h"

#include "checksum/Verifier.h"
#include "json/LenientJson.h"
#include "layout/Layout.h"
#include "report/JsonWriter.h"
#include "report/RecordJson.h"

#include <charconv>
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

} // namespace

Json RunJson::metadataToJson(const KeyValues& metadata, Json* raw)
{
    Json j = Json::object();
    for (const auto& [key, value] : metadata) {
        auto parsed = LenientJson::parse(value, {});
        const std::string name = LenientJson::validUtf8(key);
        j[name] = parsed ? RecordJson::finiteOnly(*parsed) : Json(LenientJson::validUtf8(value));
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

void writeProblem(JsonWriter& w, const Problem& problem)
{
    w.beginObject();
    w.key("kind").string(toString(problem.kind));
    w.key("severity").string(isWarningOnly(problem.kind) ? "warning" : "error");
    w.key("message").string(problem.message);
    w.key("path").string(problem.path);
    w.key("epoch").optionalInteger(problem.epoch);
    w.endObject();
}

void writeProblems(JsonWriter& w, const Problems& problems)
{
    w.beginArray();
    for (const auto& p : problems)
        writeProblem(w, p);
    w.endArray();
}

void writeChecksum(JsonWriter& w, const Run& run, const Epoch& epoch)
{
    if (const EpochFile* f = epoch.checksummedFile()) {
        w.beginObject();
        w.key("algo").plainString(toString(f->algo)); // our own name: plain
        w.key("expected");
        if (f->algo == ChecksumAlgo::Crc32)
            w.string(f->checksum);
        else
            w.null();
        w.endObject();
        return;
    }
    if (!Verifier::recordsNoChecksum(run, epoch)) {
        w.null();
        return;
    }
    w.beginObject();
    w.key("algo").string(toString(ChecksumAlgo::None));
    w.key("expected").null();
    w.endObject();
}

void writeMetrics(JsonWriter& w, const Epoch& epoch, const RecordJson::Doubles& known)
{
    for (const auto& m : epoch.metrics) {
        if (!RecordJson::isAscii(m.name)) {
            Json metrics = Json::object();
            for (const auto& each : epoch.metrics)
                metrics[LenientJson::validUtf8(each.name)] = finiteOrNull(each.value);
            w.raw(metrics.dump(-1, ' ', false, kReplace));
            return;
        }
    }
    w.beginObject();
    for (const auto& m : epoch.metrics)
        RecordJson::writeNumber(w.key(m.name), m.value, known);
    w.endObject();
}

// The members of toJson(run) before "epochs", without the braces.
void writeRunHead(JsonWriter& w, const Run& run)
{
    w.key("root").string(run.root);
    w.key("layout").string(run.layout);
    if (!run.dir.empty())
        w.key("dir").string(run.dir);
    if (const Layout* layout = layoutOf(run))
        for (std::string_view name : layout->linkNames())
            w.key(name).optionalInteger(run.linkedEpoch(name));
    w.key("links").beginObject();
    for (const auto& l : run.links) {
        w.key(l.name).beginObject();
        w.key("path").string(l.path);
        w.key("target").string(l.target);
        w.key("epoch").optionalInteger(l.epoch);
        w.key("relocated").boolean(l.relocated);
        w.key("symlink").boolean(l.symlink);
        w.endObject();
    }
    w.endObject();
    for (const auto& s : run.sources)
        w.key(s.kind).pathOrNull(s.path);
    w.key("in_progress").beginArray();
    for (const auto& item : run.inProgress)
        w.string(item.path);
    w.endArray();
    w.key("in_progress_epochs").beginArray();
    for (const auto& item : run.inProgress)
        w.optionalInteger(item.epoch);
    w.endArray();
    w.key("model_bytes_total").unsignedInteger(run.totalModelBytes());
}

// `directoryPlain`: JsonWriter::isPlain(run.directory()), asked once per run.
void writeEpochIn(JsonWriter& w, const Run& run, const Epoch& epoch, bool directoryPlain)
{
    w.beginObject();
    w.key("epoch").integer(epoch.number);
    w.key("step").optionalInteger(epoch.step);
    thread_local std::string path; // kept from epoch to epoch: no allocation
    run.pathOf(epoch, path);
    // The path is the run's directory and the epoch's, when that is relative.
    const bool dirPlain = !epoch.dir.empty() && epoch.dir.front() != '/'
                              ? directoryPlain && JsonWriter::isPlain(epoch.dir)
                              : JsonWriter::isPlain(path);
    w.key("dir");
    if (dirPlain)
        w.plainString(path);
    else
        w.string(path);
    // The model's path is the directory's and its name, when the name is relative.
    w.key("model");
    const EpochFile* model = epoch.modelFile();
    if (model && model->present && !model->name.empty() && model->name.front() != '/') {
        path.append("/").append(model->name);
        if (dirPlain && JsonWriter::isPlain(model->name))
            w.plainString(path);
        else
            w.string(path);
    } else {
        run.modelPath(epoch, path);
        w.pathOrNull(path);
    }
    w.key("model_bytes").optionalUnsigned(epoch.modelBytes());
    std::optional<Json> infoRaw;
    RecordJson::Doubles known;
    w.key("info");
    if (epoch.hasRecord())
        RecordJson::write(w, epoch.metadata, infoRaw, &known);
    else
        w.null();
    w.key("checksum");
    writeChecksum(w, run, epoch);
    w.key("metrics");
    writeMetrics(w, epoch, known);
    w.key("problems");
    writeProblems(w, epoch.problems);
    // The members toJson(run, epoch) adds for remote clients, in its order.
    w.key("first_save").boolean(epoch.firstSave);
    RecordJson::writeNumber(w.key("elapsed"), epoch.elapsed ? *epoch.elapsed : std::nan(""), known);
    w.key("saved_at").pathOrNull(epoch.savedAt);
    w.key("monitored").pathOrNull(epoch.monitored);
    w.key("files").beginArray();
    for (const EpochFile& f : epoch.files) {
        w.beginObject();
        w.key("name").string(f.name);
        w.key("bytes").unsignedInteger(f.bytes);
        w.key("present").boolean(f.present);
        w.key("model").boolean(f.model);
        if (f.algo != ChecksumAlgo::None || !f.checksum.empty()) {
            w.key("algo").plainString(toString(f.algo)); // our own name: plain
            w.key("checksum").string(f.checksum);
        }
        if (f.checkedBytes > 0)
            w.key("checked_bytes").unsignedInteger(f.checkedBytes);
        w.key("mtime_ns").integer(f.mtimeNs);
        w.key("inode").unsignedInteger(f.inode);
        w.endObject();
    }
    w.endArray();
    if (!epoch.hasRecord() && !epoch.metadata.empty()) {
        w.key("metadata");
        RecordJson::write(w, epoch.metadata, infoRaw);
    }
    std::optional<Json> nonFinite;
    for (const auto& m : epoch.metrics) {
        if (std::isfinite(m.value))
            continue;
        if (!nonFinite)
            nonFinite = Json::object();
        (*nonFinite)[LenientJson::validUtf8(m.name)] = std::isnan(m.value) ? "NaN"
                                                       : m.value > 0       ? "Infinity"
                                                                           : "-Infinity";
    }
    if (nonFinite)
        w.key("metrics_nonfinite").raw(nonFinite->dump(-1, ' ', false, kReplace));
    if (infoRaw && !infoRaw->empty())
        w.key("info_raw").raw(infoRaw->dump(-1, ' ', false, kReplace));
    w.endObject();
}

} // namespace

void RunJson::writeEpoch(JsonWriter& w, const Run& run, const Epoch& epoch)
{
    writeEpochIn(w, run, epoch, JsonWriter::isPlain(run.directory()));
}

namespace {

// The body of write() and append(): `sink` (when set) takes the text each time
// it passes `chunk` bytes and at the end.
void writeRun(JsonWriter& w, const Run& run, const Json& extra,
              const std::function<void(std::string_view)>* sink, std::size_t chunk)
{
    w.beginObject();
    writeRunHead(w, run);
    for (const auto& [key, value] : extra.items())
        w.key(key).raw(value.dump(-1, ' ', false, kReplace));
    w.verbatim(",\n\"epochs\": [");
    const bool directoryPlain = JsonWriter::isPlain(run.directory());
    for (std::size_t i = 0; i < run.epochs.size(); ++i) {
        w.verbatim(i == 0 ? "\n" : ",\n");
        writeEpochIn(w, run, run.epochs[i], directoryPlain);
        if (sink && w.size() >= chunk) {
            (*sink)(w.written(0));
            w.discard();
        }
    }
    w.verbatim("],\n\"problems\": ");
    writeProblems(w, run.problems);
    w.endObject();
    if (sink)
        (*sink)(w.written(0));
}

} // namespace

void RunJson::write(const Run& run, const std::function<void(std::string_view)>& sink,
                    const nlohmann::ordered_json& extra)
{
    // Handed over in pieces of about this size: a run of 100,000 epochs never
    // exists as one text, and a reader sees each run as soon as it is written.
    constexpr std::size_t kChunk = 64 * 1024;
    std::string text;
    text.reserve(kChunk + 4096);
    JsonWriter w(text);
    writeRun(w, run, extra, &sink, kChunk);
}

void RunJson::append(const Run& run, std::string& out, const nlohmann::ordered_json& extra)
{
    JsonWriter w(out);
    writeRun(w, run, extra, nullptr, 0);
}

void RunJson::assign(const Run& run, std::string& out, const nlohmann::ordered_json& extra)
{
    JsonWriter w(out, JsonWriter::Overwrite{});
    writeRun(w, run, extra, nullptr, 0);
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
    Json inProgressEpochs = Json::array();
    for (const auto& item : run.inProgress) {
        inProgress.push_back(text(item.path));
        inProgressEpochs.push_back(optional(item.epoch));
    }
    j["in_progress"] = std::move(inProgress);
    j["in_progress_epochs"] = std::move(inProgressEpochs);
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
