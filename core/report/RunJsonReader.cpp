#include "report/RunJsonReader.h"

#include "layout/Layout.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ckpt {

using Json = nlohmann::ordered_json;

namespace {

// Members of a run object that are neither a link name of its layout nor a
// source path (RunJson writes each source kind as a member of its own).
constexpr std::string_view kRunMembers[] = {
    "root",   "layout",   "dir",      "links",  "in_progress", "in_progress_epochs",
    "epochs", "problems", "liveness", "run_id", "protocol",    "model_bytes_total"};

std::optional<int> optionalInt(const Json& j, const char* key)
{
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer())
        return std::nullopt;
    return it->get<int>();
}

std::string string(const Json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<ChecksumAlgo> algoFromString(std::string_view name)
{
    for (const ChecksumAlgo a : {ChecksumAlgo::None, ChecksumAlgo::Disabled, ChecksumAlgo::Crc32})
        if (toString(a) == name)
            return a;
    return std::nullopt;
}

// `path` relative to `dir` when it lies below it; as given otherwise.
std::string relativeTo(const std::string& path, const std::string& dir)
{
    if (!dir.empty() && path == dir)
        return {};
    if (dir.empty() || path.size() <= dir.size() + 1 || path.compare(0, dir.size(), dir) != 0 ||
        path[dir.size()] != '/')
        return path;
    return path.substr(dir.size() + 1);
}

// A metric written as null: what "metrics_nonfinite" says it was; NaN when
// it says nothing (an older ckpt).
double nonFiniteValue(const std::string& text)
{
    if (text == "Infinity")
        return std::numeric_limits<double>::infinity();
    if (text == "-Infinity")
        return -std::numeric_limits<double>::infinity();
    return std::numeric_limits<double>::quiet_NaN();
}

template <typename T> T number(const Json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_number() ? it->get<T>() : T{};
}

EpochFile file(const Json& j)
{
    EpochFile f;
    f.name = string(j, "name");
    f.bytes = number<std::uint64_t>(j, "bytes");
    f.present = j.value("present", false);
    f.model = j.value("model", false);
    f.algo = algoFromString(string(j, "algo")).value_or(ChecksumAlgo::None);
    f.checksum = string(j, "checksum");
    f.checkedBytes = number<std::uint64_t>(j, "checked_bytes");
    f.mtimeNs = number<std::int64_t>(j, "mtime_ns");
    f.inode = number<std::uint64_t>(j, "inode");
    return f;
}

Error bad(const std::string& what)
{
    return Error{"scan JSON: " + what, {}};
}

} // namespace

Result<Problem> RunJsonReader::problem(const Json& j)
{
    if (!j.is_object())
        return bad("a problem is not an object");
    const auto kind = problemKindFromString(string(j, "kind"));
    if (!kind)
        return bad("unknown problem kind '" + string(j, "kind") + "'");
    return Problem{*kind, string(j, "message"), string(j, "path"), optionalInt(j, "epoch")};
}

Result<Problems> RunJsonReader::problems(const Json& j)
{
    Problems out;
    if (j.is_null())
        return out;
    if (!j.is_array())
        return bad("problems are not a list");
    for (const Json& item : j) {
        auto p = problem(item);
        // A kind this client does not know (a newer ckpt) is kept as unreadable
        // rather than dropping the run: its message still says what is wrong.
        if (!p)
            out.push_back(Problem{ProblemKind::Unreadable, string(item, "message"),
                                  string(item, "path"), optionalInt(item, "epoch")});
        else
            out.push_back(std::move(*p));
    }
    return out;
}

Result<Epoch> RunJsonReader::epoch(const Json& j, const std::string& root)
{
    if (!j.is_object() || !j.contains("epoch") || !j["epoch"].is_number_integer())
        return bad("an epoch without a number");
    Epoch e;
    e.number = j["epoch"].get<int>();
    if (const auto step = j.find("step"); step != j.end() && step->is_number_integer())
        e.step = step->get<std::int64_t>();
    const std::string dir = string(j, "dir");
    e.dir = relativeTo(dir, root);
    auto info = j.find("info");
    e.recorded = info != j.end() && info->is_object();
    if (!e.recorded)
        info = j.find("metadata");
    if (info != j.end() && info->is_object()) {
        const auto raw = j.find("info_raw");
        for (const auto& [key, value] : info->items()) {
            const std::string text =
                raw != j.end() && raw->is_object() && raw->contains(key)
                    ? string(*raw, key.c_str())
                    : value.dump(-1, ' ', false, Json::error_handler_t::replace);
            e.metadata.set(key, text);
        }
    }
    const std::string model = string(j, "model");
    const auto checksum = j.find("checksum");
    const bool checksummed = checksum != j.end() && checksum->is_object() &&
                             string(*checksum, "algo") != toString(ChecksumAlgo::None);
    if (const auto files = j.find("files"); files != j.end() && files->is_array()) {
        for (const Json& f : *files)
            if (f.is_object())
                e.files.push_back(file(f));
    } else if (!model.empty() || checksummed) { // a ckpt before "files": the model only
        EpochFile f;
        f.model = true;
        f.present = !model.empty();
        f.name = f.present ? relativeTo(model, dir) : std::string();
        if (const auto bytes = j.find("model_bytes"); bytes != j.end() && bytes->is_number())
            f.bytes = bytes->get<std::uint64_t>();
        if (checksum != j.end() && checksum->is_object()) {
            f.algo = algoFromString(string(*checksum, "algo")).value_or(ChecksumAlgo::None);
            f.checksum = string(*checksum, "expected");
        }
        e.files.push_back(std::move(f));
    }
    const auto nonFinite = j.find("metrics_nonfinite");
    if (const auto metrics = j.find("metrics"); metrics != j.end() && metrics->is_object())
        for (const auto& [name, value] : metrics->items())
            e.metrics.push_back(
                {name, value.is_number()
                           ? value.get<double>()
                           : nonFiniteValue(nonFinite != j.end() && nonFinite->is_object()
                                                ? string(*nonFinite, name.c_str())
                                                : std::string())});
    if (const auto first = j.find("first_save"); first != j.end() && first->is_boolean())
        e.firstSave = first->get<bool>();
    if (const auto elapsed = j.find("elapsed"); elapsed != j.end() && elapsed->is_number())
        e.elapsed = elapsed->get<double>();
    e.savedAt = string(j, "saved_at");
    e.monitored = string(j, "monitored");
    auto problems = RunJsonReader::problems(j.value("problems", Json()));
    if (!problems)
        return problems.error();
    e.problems = std::move(*problems);
    return e;
}

Result<Run> RunJsonReader::run(const Json& j)
{
    if (!j.is_object() || !j.contains("root") || !j["root"].is_string())
        return bad("a run without a root");
    Run run;
    run.root = j["root"].get<std::string>();
    run.layout = string(j, "layout");
    std::vector<std::string_view> linkNames;
    if (const Layout* layout = layoutOf(run))
        linkNames = layout->linkNames();
    if (const auto links = j.find("links"); links != j.end() && links->is_object())
        for (const auto& [name, l] : links->items())
            run.links.push_back(RunLink{name, string(l, "path"), string(l, "target"),
                                        optionalInt(l, "epoch"), l.value("relocated", false),
                                        l.value("symlink", true)});
    for (const auto& [key, value] : j.items()) {
        const bool known = std::find(std::begin(kRunMembers), std::end(kRunMembers), key) !=
                               std::end(kRunMembers) ||
                           std::find(linkNames.begin(), linkNames.end(), key) != linkNames.end();
        if (!known && (value.is_string() || value.is_null()))
            run.sources.push_back({key, value.is_string() ? value.get<std::string>() : ""});
    }
    run.dir = string(j, "dir");
    const auto itemEpochs = j.find("in_progress_epochs");
    if (const auto items = j.find("in_progress"); items != j.end() && items->is_array())
        for (std::size_t i = 0; i < items->size(); ++i) {
            const Json& item = (*items)[i];
            std::optional<int> epoch;
            if (itemEpochs != j.end() && itemEpochs->is_array() && i < itemEpochs->size() &&
                (*itemEpochs)[i].is_number_integer())
                epoch = (*itemEpochs)[i].get<int>();
            if (item.is_string())
                run.inProgress.push_back({item.get<std::string>(), epoch});
        }
    if (const auto epochs = j.find("epochs"); epochs != j.end() && epochs->is_array()) {
        run.epochs.reserve(epochs->size());
        for (const Json& item : *epochs) {
            auto e = epoch(item, run.directory());
            if (!e)
                return Error{run.root + ": " + e.error().message, run.root};
            run.epochs.push_back(std::move(*e));
        }
    }
    auto problems = RunJsonReader::problems(j.value("problems", Json()));
    if (!problems)
        return problems.error();
    run.problems = std::move(*problems);
    return run;
}

Result<RunJsonReader::Scan> RunJsonReader::scan(std::string_view text)
{
    Json j;
    try {
        j = Json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        return bad(std::string("not JSON (") + e.what() + ")");
    }
    return scanDocument(j);
}

Result<RunJsonReader::Scan> RunJsonReader::scanDocument(const Json& j)
{
    if (!j.is_object() || !j.contains("runs") || !j["runs"].is_array())
        return bad("no \"runs\" list");
    Scan out;
    out.protocol = j.value("protocol", 0);
    out.runs.reserve(j["runs"].size());
    for (const Json& item : j["runs"]) {
        auto run = RunJsonReader::run(item);
        if (!run)
            return run.error();
        out.runs.push_back(std::move(*run));
        out.liveness.push_back(string(item, "liveness"));
    }
    auto walk = problems(j.value("walk_problems", Json()));
    if (!walk)
        return walk.error();
    out.walkProblems = std::move(*walk);
    return out;
}

} // namespace ckpt
