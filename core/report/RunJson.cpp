#include "report/RunJson.h"

#include <cmath>

namespace ckpt {

using Json = nlohmann::ordered_json;

namespace {

template <typename T> Json optional(const std::optional<T>& v)
{
    return v ? Json(*v) : Json(nullptr);
}

Json pathOrNull(const std::string& path)
{
    return path.empty() ? Json(nullptr) : Json(path);
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

Json RunJson::infoToJson(const CkptInfo& info)
{
    return finiteOnly(info.raw);
}

Json RunJson::toJson(const Problem& problem)
{
    Json j = Json::object();
    j["kind"] = std::string(toString(problem.kind));
    j["message"] = problem.message;
    j["path"] = problem.path;
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
    j["path"] = link.path;
    j["target"] = link.target;
    j["epoch"] = optional(link.epoch);
    j["relocated"] = link.relocated;
    j["symlink"] = link.symlink;
    return j;
}

Json RunJson::toJson(const Epoch& epoch)
{
    Json j = Json::object();
    j["epoch"] = epoch.number;
    j["dir"] = epoch.dir;
    j["model"] = pathOrNull(epoch.modelPath);
    j["model_bytes"] = optional(epoch.modelBytes);
    j["info"] = epoch.info ? infoToJson(*epoch.info) : Json(nullptr);
    j["problems"] = toJson(epoch.problems);
    return j;
}

Json RunJson::toJson(const Run& run)
{
    Json j = Json::object();
    j["root"] = run.root;
    j["layout"] = run.layout;
    j["last"] = run.last ? optional(run.last->epoch) : Json(nullptr);
    j["best"] = run.best ? optional(run.best->epoch) : Json(nullptr);
    Json links = Json::object();
    if (run.last)
        links["last"] = toJson(*run.last);
    if (run.best)
        links["best"] = toJson(*run.best);
    j["links"] = std::move(links);
    j["ckpt_log"] = pathOrNull(run.ckptLog);
    j["training_log"] = pathOrNull(run.trainingLog);
    j["history_txt"] = pathOrNull(run.historyTxt);
    j["work_dir"] = pathOrNull(run.workDir);
    j["model_bytes_total"] = run.totalModelBytes();
    Json epochs = Json::array();
    for (const auto& e : run.epochs)
        epochs.push_back(toJson(e));
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
