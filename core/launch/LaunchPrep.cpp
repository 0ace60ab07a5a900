#include "launch/LaunchPrep.h"

#include "candle/CandleConfigFile.h"
#include "io/AtomicFile.h"
#include "io/RegularFile.h"
#include "launch/CommandTemplate.h"
#include "launch/LaunchRecord.h"
#include "launch/RunBranches.h"
#include "launch/RunConfigFinder.h"
#include "layout/Layout.h"
#include "ops/Relinker.h"
#include "ops/RunLock.h"

#include <QDateTime>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view kRestartMode = "ckpt_restart_mode";

std::string localStamp()
{
    return QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")).toStdString();
}

// The template of the run's latest launch, else the one the user named for it.
Result<std::string> templateFor(const fs::path& root, const LaunchRegistry& registry)
{
    if (auto record = LaunchRecord::load(LaunchRecord::pathFor(root)); record && record->latest())
        if (!record->latest()->plan.commandTemplate.empty())
            return record->latest()->plan.commandTemplate;
    if (auto ext = registry.external(root.string()); ext && *ext && !(*ext)->command.empty())
        return (*ext)->command;
    return Error::at(root.string(),
                     "no command known for this run: name the trainer's command template once "
                     "(ckpt launch RUN --from N -- python3 train.py --config_file {config} "
                     "--ckpt_directory {ckpt_directory} --output_dir {output_dir} "
                     "--epochs {epochs} --ckpt_restart_mode {ckpt_restart_mode})");
}

// A new folder beside the parent's run folder: <name>-fork-e<epoch dir name>[-suffix][-N].
fs::path defaultForkFolder(const fs::path& parentFolder, const std::string& epochDir,
                           const std::string& suffix)
{
    // A fork of a fork does not pile up: RUN001-fork-e006-... forks as RUN001-fork-e011.
    const std::string parent = parentFolder.filename().string();
    std::string base = parent.substr(0, parent.find("-fork-e")) + "-fork-e" +
                       fs::path(epochDir).filename().string();
    if (!suffix.empty())
        base += "-" + suffix;
    fs::path candidate = parentFolder.parent_path() / base;
    std::error_code ec;
    for (int n = 2; fs::exists(candidate, ec) && n < 1000; ++n)
        candidate = parentFolder.parent_path() / (base + "-" + std::to_string(n));
    return candidate;
}

std::string epochList(const std::vector<int>& epochs)
{
    std::string out;
    for (int e : epochs)
        out += (out.empty() ? "" : ", ") + std::to_string(e);
    return out;
}

} // namespace

std::string LaunchPrep::describe(const PreparedLaunch& p)
{
    const int from = p.plan.parent ? p.plan.parent->epoch : 0;
    const LaunchPlan& plan = p.plan;
    const bool fork = plan.mode == LaunchPlan::Mode::Fork;
    std::string out = std::string(fork ? "fork of " : "restart of ") + p.parentRoot.string() +
                      " from epoch " + std::to_string(from) + "\n";
    for (const auto& f : p.checkFailures)
        out += "  forced past: " + f + "\n";
    if (fork) {
        out += "  new run:     " + plan.runRoot + "\n";
        out += "  epoch:       hard-linked into " + p.forkEpochDir.string() + ", last -> it\n";
    } else {
        if (p.superseded.empty())
            out += "  move aside:  nothing (no epoch after " + std::to_string(from) + ")\n";
        else
            out += "  move aside:  epochs " + epochList(p.superseded) + " -> " +
                   p.supersededDir.string() + " (with the run's logs as they are)\n";
        out += "  relink:      last -> epoch " + std::to_string(from);
        if (p.bestTo)
            out += ", best -> epoch " + std::to_string(*p.bestTo);
        out += "\n";
    }
    out += "  config:      " + plan.configFile + " (edited copy of " + p.original.origin() + ")\n";
    for (const ParamEdit& e : p.edits) {
        const auto* old = p.original.find(e.key);
        out += "    " + e.key + ": " + (old ? old->value.pythonLiteral() : "(unset)") + " -> " +
               e.value.pythonLiteral() + "\n";
    }
    out += "  directory:   " + plan.workingDir + "\n";
    out += "  backend:     " + std::string(LaunchPlan::backendName(plan.backend)) + "\n";
    out += "  argv:        " + CommandTemplate::displayArgv(plan.argv) + "\n";
    return out;
}

fs::path LaunchPrep::runFolderOf(const fs::path& root)
{
    return CandleConfigFile::runFolderOf(root);
}

std::optional<int> LaunchPrep::bestUpTo(const Run& run, int epoch)
{
    std::optional<int> best;
    std::optional<double> bestValue;
    for (const Epoch& e : run.epochs) {
        if (e.number > epoch)
            break;
        const auto value = e.metric(kBestSoFar);
        if (!value || std::isnan(*value) || std::isinf(*value))
            continue;
        if (!bestValue || *value != *bestValue) {
            bestValue = value;
            best = e.number;
        }
    }
    return best;
}

std::string LaunchPrep::cutTrainingLog(const std::string& text, int epochs)
{
    std::string out;
    std::size_t pos = 0;
    bool header = true;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        end = end == std::string::npos ? text.size() : end + 1;
        const std::string_view line(text.data() + pos, end - pos);
        pos = end;
        if (header) {
            out.append(line);
            header = false;
            continue;
        }
        int epoch = -1;
        const std::size_t comma = line.find(',');
        const std::string field(line.substr(0, comma));
        char* stop = nullptr;
        const long v = std::strtol(field.c_str(), &stop, 10);
        if (stop != field.c_str())
            epoch = static_cast<int>(v);
        if (epoch >= 0 && epoch < epochs) // 0-based: epoch 0 is epochs/001
            out.append(line);
    }
    return out;
}

Result<ParamSet> LaunchPrep::parameters(const PrepRequest& request, const LaunchRegistry& registry)
{
    std::error_code ec;
    if (!request.configFile.empty())
        return ParamSet::readFile(fs::absolute(request.configFile, ec).lexically_normal().string());
    const fs::path root = fs::absolute(request.runRoot, ec).lexically_normal();
    auto found = RunConfigFinder::configFor(root, registry, request.fromEpoch);
    if (!found)
        return found.error();
    return ParamSet::readFile(*found);
}

Result<PreparedLaunch> LaunchPrep::prepare(const PrepRequest& request,
                                           const LaunchRegistry& registry, const Progress& progress)
{
    const bool fork = request.mode == LaunchPlan::Mode::Fork;
    if (!fork && request.mode != LaunchPlan::Mode::Restart)
        return Error::at(request.runRoot.string(), "a launch from an epoch is a restart or a fork");
    std::error_code ec;
    const fs::path root = fs::absolute(request.runRoot, ec).lexically_normal();
    const Layout* layout = layoutAt(root);
    if (!layout)
        return Error::at(root.string(), "no checkpoint run here");
    if (!layout->canRestart())
        return Error::at(root.string(), std::string(layout->name()) +
                                            " runs cannot be restarted by Ckpt Studio (yet)");
    const Run run = layout->loadRun(root);
    const Epoch* from = run.findEpoch(request.fromEpoch);
    if (!from)
        return Error::at(root.string(), "no epoch " + std::to_string(request.fromEpoch) +
                                            " in this run (it has " +
                                            std::to_string(run.epochs.size()) + " epochs)");

    PreparedLaunch p;
    p.parentRoot = root;
    p.epochDir = from->dir;
    p.edits = request.edits;

    // The epoch must be one a trainer can restart from.
    auto check = Relinker::checkEpoch(root, request.fromEpoch, progress);
    if (!check)
        return check.error();
    p.checkFailures = *check;
    if (!p.checkFailures.empty() && !request.force) {
        std::string why;
        for (const auto& f : p.checkFailures)
            why += (why.empty() ? "" : "; ") + f;
        return Error::at(run.pathOf(*from), "cannot restart from epoch " +
                                                std::to_string(request.fromEpoch) + ": " + why +
                                                " (--force to launch anyway)");
    }

    std::string commandTemplate = request.commandTemplate;
    if (commandTemplate.empty()) {
        auto known = templateFor(root, registry);
        if (!known)
            return known.error();
        commandTemplate = *known;
    }

    // Parameters: the run's config with the edits applied.
    auto original = parameters(request, registry);
    if (!original)
        return original.error();
    const std::string configFile = original->origin();
    p.original = std::move(*original);
    // A command that passes no {ckpt_restart_mode} leaves it to the config: a
    // trainer told "off" there would start over at epoch 1 and, CANDLE-style,
    // delete the kept epochs as it reached them. The edited config says
    // "required" then, so the trainer resumes from `last` or refuses.
    const bool modeEdited = std::any_of(request.edits.begin(), request.edits.end(),
                                        [](const ParamEdit& e) { return e.key == kRestartMode; });
    if (!modeEdited && commandTemplate.find("{ckpt_restart_mode}") == std::string::npos) {
        const ParamSet::Param* now = p.original.find(kRestartMode);
        if (!now || now->value.pythonLiteral() != "'required'") {
            auto required = ParamEdit::parse(std::string(kRestartMode) + "=required");
            if (!required)
                return required.error();
            p.edits.push_back(*required);
        }
    }
    auto text = ConfigWriter::render(p.original, p.edits);
    if (!text)
        return text.error();
    p.configText = std::move(*text);
    auto edited = ParamSet::parse(p.configText, configFile);
    if (!edited)
        return edited.error();

    // Where the new (or continued) run lives.
    const fs::path parentFolder = runFolderOf(root);
    fs::path newRoot = root;
    if (fork) {
        p.runFolder = request.forkFolder.empty()
                          ? defaultForkFolder(parentFolder, from->dir, request.forkSuffix)
                          : fs::absolute(request.forkFolder, ec).lexically_normal();
        if (fs::exists(p.runFolder, ec) && !fs::is_empty(p.runFolder, ec))
            return Error::at(p.runFolder.string(),
                             "already exists and is not empty: a fork gets a new folder");
        newRoot = p.runFolder / root.lexically_relative(parentFolder);
        p.forkEpochDir = newRoot / from->dir; // the layout's own place for it
    } else {
        p.runFolder = parentFolder;
        for (const Epoch& e : run.epochs)
            if (e.number > request.fromEpoch)
                p.superseded.push_back(e.number);
        p.supersededDir = root / ".ckpt-studio" / "superseded" / localStamp();
        for (int n = 2; fs::exists(p.supersededDir, ec); ++n)
            p.supersededDir =
                root / ".ckpt-studio" / "superseded" / (localStamp() + "-" + std::to_string(n));
        const auto best = run.linkedEpoch("best");
        if (best && *best > request.fromEpoch)
            p.bestTo = bestUpTo(run, request.fromEpoch);
    }

    LaunchPlan& plan = p.plan;
    plan.mode = request.mode;
    plan.backend = request.backend;
    plan.slurm = request.slurm;
    plan.runRoot = newRoot.string();
    plan.name = newRoot.lexically_relative(p.runFolder.parent_path()).string();
    plan.workingDir = p.runFolder.string();
    plan.commandTemplate = commandTemplate;
    plan.configFile =
        ConfigWriter::firstChoice(p.original, ConfigWriter::configsDir(newRoot)).string();
    plan.baseConfigFile = configFile;
    const EpochFile* checked = from->checksummedFile();
    plan.parent = LaunchParent{root.string(),
                               request.fromEpoch,
                               checked && checked->algo == ChecksumAlgo::Crc32 ? checked->checksum
                                                                               : std::string(),
                               {},
                               int(RunBranches::supersededFolders(root).size())};
    for (const ParamEdit& e : p.edits) {
        const ParamSet::Param* old = p.original.find(e.key);
        plan.parent->changes.push_back(
            {e.key, old ? old->value.pythonLiteral() : std::string(), e.value.pythonLiteral()});
    }
    const HyperParams params = edited->toHyperParams();
    for (const auto& item : params.items())
        plan.parameters.emplace_back(item.name, item.value.pythonLiteral());
    p.values = CommandTemplate::valuesFrom(params);
    p.values["config"] = plan.configFile;
    p.values["ckpt_directory"] = newRoot.string();
    p.values["output_dir"] = p.runFolder.string();
    p.values["ckpt_restart_mode"] = "required";
    if (plan.backend == LaunchPlan::Backend::Slurm && plan.slurm.lastLink.empty())
        plan.slurm.lastLink = (newRoot / "last").string();
    auto argv = CommandTemplate(commandTemplate).expand(p.values);
    if (!argv)
        return argv.error();
    plan.argv = std::move(*argv);
    return p;
}

} // namespace ckpt
