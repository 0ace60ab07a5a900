// RemoteCkpt's typed calls for the experiment manager and the model views:
// each runs one `ckpt ... --json` on the far side and reads its document.
#include "remote/RemoteCkpt.h"
#include "report/ModelJsonReader.h"

namespace ckpt {

using Json = nlohmann::ordered_json;

namespace {

std::string text(const Json& j, const char* key)
{
    const auto it = j.is_object() ? j.find(key) : j.end();
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::string> optionalText(const Json& j, const char* key)
{
    const auto it = j.is_object() ? j.find(key) : j.end();
    return it != j.end() && it->is_string() ? std::optional(it->get<std::string>()) : std::nullopt;
}

template <typename T> std::optional<T> optionalNumber(const Json& j, const char* key)
{
    const auto it = j.is_object() ? j.find(key) : j.end();
    return it != j.end() && it->is_number() ? std::optional(it->get<T>()) : std::nullopt;
}

std::vector<RemoteLineageEdge> edges(const Json& list)
{
    std::vector<RemoteLineageEdge> out;
    if (!list.is_array())
        return out;
    for (const Json& e : list) {
        RemoteLineageEdge edge;
        edge.parent = text(e, "parent");
        edge.epoch = optionalNumber<int>(e, "epoch").value_or(0);
        edge.child = text(e, "child");
        edge.mode = text(e, "mode");
        edge.submitted = text(e, "submitted");
        edge.state = text(e, "state");
        if (const auto changes = e.find("changes"); changes != e.end() && changes->is_array())
            for (const Json& c : *changes)
                edge.changes.push_back({text(c, "key"), optionalText(c, "from"), text(c, "to")});
        out.push_back(std::move(edge));
    }
    return out;
}

} // namespace

Error RemoteCkpt::fromHost(const Error& e) const
{
    const std::string host = m_target.display();
    std::string message = "from " + host;
    message += ": " + e.message;
    return Error{std::move(message), m_target.url()};
}

Result<Json> RemoteCkpt::document(const QStringList& arguments, const char* member,
                                  const Progress& progress) const
{
    Outcome o = run(arguments, progress);
    if (o.failure != RemoteFailure::None)
        return error(o);
    if (member && (!o.json.is_object() || !o.json.contains(member))) {
        const std::string host = m_target.display();
        std::string message = "ckpt on " + host;
        message += " answered `";
        message += arguments.join(QLatin1Char(' ')).toStdString();
        message += "` without \"";
        message += member;
        message += "\". Update it with scripts/install-remote.sh " + host + " [PREFIX].";
        return Error{std::move(message), m_target.url()};
    }
    return std::move(o.json);
}

Result<RemoteParams> RemoteCkpt::params(const std::string& run, const std::string& config,
                                        const Progress& progress, std::optional<int> epoch) const
{
    QStringList args{QStringLiteral("params"), QString::fromStdString(run)};
    if (!config.empty())
        args << QStringLiteral("--config") << QString::fromStdString(config);
    else if (epoch)
        args << QStringLiteral("--epoch") << QString::number(*epoch);
    auto j = document(args, "sections", progress);
    if (!j && epoch && config.empty() &&
        j.error().message.find("Unknown option 'epoch'") != std::string::npos)
        return params(run, config, progress); // an older far ckpt
    if (!j)
        return j.error();
    RemoteParams out;
    out.file = text(*j, "file");
    out.format = text(*j, "format");
    for (const Json& s : (*j)["sections"]) {
        const std::string section = text(s, "section");
        if (const auto list = s.find("parameters"); list != s.end() && list->is_array())
            for (const Json& p : *list)
                out.parameters.push_back({section, text(p, "key"), text(p, "literal"),
                                          p.value("value", Json()),
                                          optionalNumber<int>(p, "line").value_or(0)});
    }
    if (const auto notes = j->find("notes"); notes != j->end() && notes->is_array())
        for (const Json& n : *notes)
            if (n.is_string())
                out.notes.push_back(n.get<std::string>());
    out.json = std::move(*j);
    return out;
}

QStringList RemoteCkpt::launchArguments(const RemoteLaunchRequest& r)
{
    const auto q = [](const std::string& s) { return QString::fromStdString(s); };
    QStringList args{QStringLiteral("launch"), q(r.run), QStringLiteral("--from"),
                     QString::number(r.from)};
    if (r.mode == LaunchPlan::Mode::Fork)
        args << QStringLiteral("--fork");
    if (!r.into.empty())
        args << QStringLiteral("--into") << q(r.into);
    if (!r.config.empty())
        args << QStringLiteral("--config") << q(r.config);
    for (const std::string& set : r.sets)
        args << QStringLiteral("--set") << q(set);
    if (r.backend)
        args << QStringLiteral("--backend")
             << QString::fromLatin1(LaunchPlan::backendName(*r.backend));
    const SlurmOptions& s = r.slurm;
    if (!s.partition.empty())
        args << QStringLiteral("--slurm-partition") << q(s.partition);
    if (!s.time.empty())
        args << QStringLiteral("--slurm-time") << q(s.time);
    if (s.cpusPerTask > 0)
        args << QStringLiteral("--slurm-cpus") << QString::number(s.cpusPerTask);
    if (s.gpus > 0)
        args << QStringLiteral("--slurm-gpus") << QString::number(s.gpus);
    if (!s.memory.empty())
        args << QStringLiteral("--slurm-mem") << q(s.memory);
    for (const std::string& line : s.extraLines)
        args << QStringLiteral("--sbatch") << q(line);
    if (r.force)
        args << QStringLiteral("--force");
    args << (r.dryRun ? QStringLiteral("--dry-run") : QStringLiteral("--detach"));
    if (!r.commandTemplate.empty()) {
        args << QStringLiteral("--");
        for (const std::string& word : r.commandTemplate)
            args << q(word);
    }
    return args;
}

Result<RemoteLaunched> RemoteCkpt::launch(const RemoteLaunchRequest& request,
                                          const Progress& progress) const
{
    if (request.from <= 0 || request.run.empty())
        return Error{"a remote launch needs a run and an epoch to start from (--from N)",
                     m_target.url()};
    if (const auto problems = request.slurm.problems(); !problems.empty())
        return Error{"Slurm options: " + problems.front(), m_target.url()};
    auto j = document(launchArguments(request), "run", progress);
    if (!j)
        return j.error();
    RemoteLaunched out;
    out.run = text(*j, "run");
    out.mode = text(*j, "mode");
    out.from = optionalNumber<int>(*j, "from").value_or(0);
    out.parent = text(*j, "parent");
    out.backend = text(*j, "backend");
    out.jobId = optionalText(*j, "job_id");
    out.pid = optionalNumber<std::int64_t>(*j, "pid");
    out.config = text(*j, "config");
    if (const auto argv = j->find("argv"); argv != j->end() && argv->is_array())
        for (const Json& a : *argv)
            if (a.is_string())
                out.argv.push_back(a.get<std::string>());
    out.supersededDir = text(*j, "superseded_dir");
    out.state = text(*j, "state");
    out.commandTemplate = text(*j, "command_template");
    out.plan = text(*j, "plan");
    out.batchScript = text(*j, "batch_script");
    if (const auto failures = j->find("check_failures");
        failures != j->end() && failures->is_array())
        for (const Json& f : *failures)
            if (f.is_string())
                out.checkFailures.push_back(f.get<std::string>());
    out.json = std::move(*j);
    return out;
}

Result<std::vector<RemoteLaunchedRun>> RemoteCkpt::runs(const std::string& under,
                                                        const Progress& progress) const
{
    QStringList args{QStringLiteral("runs")};
    if (!under.empty())
        args << QString::fromStdString(under);
    auto j = document(args, "runs", progress);
    if (!j)
        return j.error();
    std::vector<RemoteLaunchedRun> out;
    for (const Json& r : (*j)["runs"]) {
        RemoteLaunchedRun run;
        run.run = text(r, "run");
        run.name = text(r, "name");
        run.state = text(r, "state");
        run.backend = text(r, "backend");
        run.mode = text(r, "mode");
        run.jobId = optionalText(r, "job_id");
        run.slurmState = optionalText(r, "slurm_state");
        if (const auto pids = r.find("pids"); pids != r.end() && pids->is_array())
            for (const Json& p : *pids)
                if (p.is_number_integer())
                    run.pids.push_back(p.get<std::int64_t>());
        if (const auto parent = r.find("parent"); parent != r.end() && parent->is_object()) {
            run.parentRun = optionalText(*parent, "run_root");
            run.parentEpoch = optionalNumber<int>(*parent, "epoch");
        }
        run.started = text(r, "started");
        run.ended = text(r, "ended");
        run.durationSeconds = optionalNumber<double>(r, "duration_seconds");
        run.log = text(r, "log");
        run.error = text(r, "error");
        out.push_back(std::move(run));
    }
    return out;
}

Status RemoteCkpt::forget(const std::string& run) const
{
    auto j =
        document({QStringLiteral("runs"), QStringLiteral("--forget"), QString::fromStdString(run)},
                 "forgotten");
    if (!j)
        return j.error();
    return {};
}

Result<RemoteStopped> RemoteCkpt::stop(const std::string& run, int graceSeconds) const
{
    auto j = document({QStringLiteral("stop"), QString::fromStdString(run),
                       QStringLiteral("--grace"), QString::number(graceSeconds)},
                      "state");
    if (!j)
        return j.error();
    return RemoteStopped{text(*j, "run"), text(*j, "state"), optionalText(*j, "slurm_state"),
                         optionalNumber<int>(*j, "exit_status")};
}

Result<RemoteLineage> RemoteCkpt::lineage(const std::string& run, const Progress& progress) const
{
    auto j =
        document({QStringLiteral("lineage"), QString::fromStdString(run)}, "ancestors", progress);
    if (!j)
        return j.error();
    RemoteLineage out{
        text(*j, "run"), edges((*j)["ancestors"]), edges(j->value("descendants", Json())), {}};
    out.json = std::move(*j);
    return out;
}

Result<Json> RemoteCkpt::longDocument(const QStringList& arguments, const char* member,
                                      const Progress& progress) const
{
    QStringList withProgress = arguments;
    withProgress << QStringLiteral("--progress-json");
    Outcome o = run(withProgress, progress, true);
    // A ckpt from before these options: asked again without (no progress then).
    if (o.failure == RemoteFailure::Refused &&
        (o.message.find("option 'progress-json'") != std::string::npos ||
         o.message.find("option 'exit-on-eof'") != std::string::npos))
        o = run(arguments, progress, false);
    if (o.failure == RemoteFailure::Dropped)
        return Error{o.message + " Reading models changes nothing on " + m_target.display() +
                         "; try again.",
                     m_target.url()};
    if (o.failure != RemoteFailure::None)
        return error(o);
    if (member && (!o.json.is_object() || !o.json.contains(member)))
        return document(arguments, member); // the same complaint as any other call
    return std::move(o.json);
}

namespace {

void readTensors(const Json& j, RemoteInspect& out)
{
    // Tensors of a TensorSource ("tensors") or an HDF5 file's statistics ("stats").
    for (const char* listName : {"tensors", "stats"}) {
        const auto list = j.find(listName);
        if (list == j.end() || !list->is_array())
            continue;
        for (const Json& t : *list) {
            RemoteInspect::Tensor tensor;
            tensor.name = t.contains("name") ? text(t, "name") : text(t, "path");
            if (const auto shape = t.find("shape"); shape != t.end() && shape->is_array())
                for (const Json& d : *shape)
                    if (d.is_number_unsigned())
                        tensor.shape.push_back(d.get<std::uint64_t>());
            tensor.dtype = text(t, "dtype");
            tensor.bytes = optionalNumber<std::uint64_t>(t, "bytes");
            tensor.optimizerState = t.value("optimizer_state", false);
            tensor.min = optionalNumber<double>(t, "min");
            tensor.max = optionalNumber<double>(t, "max");
            tensor.mean = optionalNumber<double>(t, "mean");
            tensor.std = optionalNumber<double>(t, "std");
            tensor.l2 = optionalNumber<double>(t, "l2");
            tensor.count = optionalNumber<std::uint64_t>(t, "count");
            tensor.zeros = optionalNumber<std::uint64_t>(t, "zeros");
            tensor.nan = optionalNumber<std::uint64_t>(t, "nan");
            tensor.inf = optionalNumber<std::uint64_t>(t, "inf");
            tensor.error = text(t, "error");
            out.tensors.push_back(std::move(tensor));
        }
    }
    if (const auto problems = j.find("problems"); problems != j.end() && problems->is_array())
        for (const Json& p : *problems)
            if (p.is_string())
                out.problems.push_back(p.get<std::string>());
}

} // namespace

Result<RemoteInspect> RemoteCkpt::inspect(const std::string& modelOrEpoch,
                                          const Progress& progress) const
{
    auto j = longDocument({QStringLiteral("inspect"), QString::fromStdString(modelOrEpoch)}, "file",
                          progress);
    if (!j)
        return j.error();
    RemoteInspect out;
    out.file = text(*j, "file");
    out.format = text(*j, "format");
    out.bytes = optionalNumber<std::uint64_t>(*j, "bytes").value_or(0);
    readTensors(*j, out);
    // A Keras 3 archive: its weights file, inspected inside it.
    if (const auto weights = j->find("weights"); weights != j->end() && weights->is_object()) {
        out.weightsFile = text(*weights, "file");
        readTensors(*weights, out);
    }
    out.json = std::move(*j);
    return out;
}

Result<ModelDiff> RemoteCkpt::readDiff(const QStringList& arguments, const Progress& progress) const
{
    auto j = longDocument(arguments, "tensors", progress);
    if (!j)
        return j.error();
    auto d = ModelJsonReader::diff(*j);
    if (!d)
        return fromHost(d.error());
    return d;
}

Result<ModelDiff> RemoteCkpt::diff(const std::string& a, const std::string& b,
                                   const Progress& progress) const
{
    return readDiff({QStringLiteral("diff"), QString::fromStdString(a), QString::fromStdString(b)},
                    progress);
}

Result<ModelDiff> RemoteCkpt::diffEpochs(const std::string& run, int a, int b,
                                         const Progress& progress) const
{
    return readDiff({QStringLiteral("diff"), QString::fromStdString(run),
                     QStringLiteral("--epochs"), QString::number(a), QString::number(b)},
                    progress);
}

} // namespace ckpt
