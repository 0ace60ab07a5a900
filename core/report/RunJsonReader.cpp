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
    "root",   "layout",   "links",    "in_progress", "model_bytes_total",
    "epochs", "problems", "liveness", "run_id",      "protocol"};

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
    if (dir.empty() || path.size() <= dir.size() + 1 || path.compare(0, dir.size(), dir) != 0 ||
        path[dir.size()] != '/')
        return path;
    return path.substr(dir.size() + 1);
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
    if (const auto info = j.find("info"); info != j.end() && info->is_object()) {
        e.recorded = true;
        for (const auto& [key, value] : info->items())
            e.metadata.set(key, value.dump());
    }
    const std::string model = string(j, "model");
    const auto checksum = j.find("checksum");
    const bool checksummed = checksum != j.end() && checksum->is_object() &&
                             string(*checksum, "algo") != toString(ChecksumAlgo::None);
    if (!model.empty() || checksummed) {
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
    if (const auto metrics = j.find("metrics"); metrics != j.end() && metrics->is_object())
        for (const auto& [name, value] : metrics->items())
            e.metrics.push_back({name, value.is_number()
                                           ? value.get<double>()
                                           : std::numeric_limits<double>::quiet_NaN()});
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
    if (const auto items = j.find("in_progress"); items != j.end() && items->is_array())
        for (const Json& item : *items)
            if (item.is_string())
                run.inProgress.push_back({item.get<std::string>(), std::nullopt});
    if (const auto epochs = j.find("epochs"); epochs != j.end() && epochs->is_array()) {
        run.epochs.reserve(epochs->size());
        for (const Json& item : *epochs) {
            auto e = epoch(item, run.root);
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
