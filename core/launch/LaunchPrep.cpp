#include "launch/LaunchPrep.h"

#include "io/AtomicFile.h"
#include "io/RegularFile.h"
#include "launch/CommandTemplate.h"
#include "launch/LaunchRecord.h"
#include "launch/ProcessProbe.h"
#include "launch/RunBranches.h"
#include "launch/RunConfigFinder.h"
#include "layout/Layout.h"
#include "layout/Resume.h"
#include "ops/Relinker.h"
#include "ops/RunLock.h"

#include <QDateTime>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

std::string localStamp()
{
    return QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")).toStdString();
}

// The template of the run's latest launch, else the one the user named for it.
Result<std::string> templateFor(const fs::path& root, const LaunchRegistry& registry,
                                const Resume& resume)
{
    if (auto record = LaunchRecord::load(LaunchRecord::pathFor(root)); record && record->latest())
        if (!record->latest()->plan.commandTemplate.empty())
            return record->latest()->plan.commandTemplate;
    if (auto ext = registry.external(root.string()); ext && *ext && !(*ext)->command.empty())
        return (*ext)->command;
    return Error::at(root.string(),
                     "no command known for this run: name the trainer's command template once "
                     "(ckpt launch RUN --from N -- " +
                         resume.exampleCommand() + ")");
}

// A new folder beside the parent's run folder: <name>-fork-e<epoch dir name>[-suffix][-N].
fs::path defaultForkFolder(const fs::path& parentFolder, const std::string& epochLabel,
                           const std::string& suffix)
{
    // A fork of a fork does not pile up: RUN001-fork-e006-... forks as RUN001-fork-e011.
    const std::string parent = parentFolder.filename().string();
    std::string base = parent.substr(0, parent.find("-fork-e")) + "-fork-e" + epochLabel;
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
    for (const auto& n : p.notes)
        out += "  note:        " + n + "\n";
    if (p.segment) {
        out += "  continues:   in " + plan.runRoot + " (the run's next segment; nothing moves)\n";
    } else if (fork) {
        out += "  new run:     " + plan.runRoot + "\n";
        out += "  epoch:       hard-linked into " + p.forkEpochDir.string() + ", last -> it\n";
    } else {
        if (p.superseded.empty())
            out += "  move aside:  nothing (no epoch after " + std::to_string(from) + ")\n";
        else
            out += "  move aside:  epochs " + epochList(p.superseded) + " -> " +
                   p.supersededDir.string() + " (with the run's logs as they are)\n";
        std::string links;
        for (const PreparedLaunch::LinkMove& l : p.links)
            links += (links.empty() ? "" : ", ") + l.name + " -> epoch " + std::to_string(l.to);
        if (!links.empty())
            out += "  relink:      " + links + "\n";
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

void LaunchPrep::setSlurm(PreparedLaunch& p, SlurmOptions options)
{
    if (options.lastLink.empty())
        options.lastLink = p.newestLink;
    if (options.requeueArguments.empty())
        options.requeueArguments = p.requeueArguments;
    p.plan.slurm = std::move(options);
}

fs::path LaunchPrep::runFolderOf(const fs::path& root)
{
    // The names of many runs come through here: each format's rule is path
    // arithmetic, and the first that changes the path applies.
    const fs::path r = Resume::plain(root);
    for (const Layout* layout : builtinLayouts())
        if (const Resume* resume = layout->resume())
            if (fs::path folder = resume->runFolder(r); folder != r)
                return folder;
    return r;
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
    const Resume* resume = layout->resume();
    if (!resume)
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
        auto known = templateFor(root, registry, *resume);
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
    // Settings the format needs for a resume, where the command does not pass them.
    for (const Resume::Setting& needed : resume->requiredSettings()) {
        const bool edited = std::any_of(request.edits.begin(), request.edits.end(),
                                        [&](const ParamEdit& e) { return e.key == needed.key; });
        if (edited || commandTemplate.find("{" + needed.key + "}") != std::string::npos)
            continue;
        auto required = ParamEdit::parse(needed.key + "=" + needed.value);
        if (!required)
            return required.error();
        const ParamSet::Param* now = p.original.find(needed.key);
        if (!now || now->value.pythonLiteral() != required->value.pythonLiteral())
            p.edits.push_back(*required);
    }
    std::vector<std::string> editedKeys;
    for (const ParamEdit& e : request.edits) {
        const ParamSet::Param* old = p.original.find(e.key);
        if (Status typed = e.checkType(old ? &old->value : nullptr); !typed)
            return Error::at(configFile, typed.error().message);
        editedKeys.push_back(e.key);
    }
    p.notes = resume->editNotes(editedKeys);
    auto text = ConfigWriter::render(p.original, p.edits);
    if (!text)
        return text.error();
    p.configText = std::move(*text);
    auto edited = ParamSet::parse(p.configText, configFile);
    if (!edited)
        return edited.error();

    // Where the new (or continued) run lives.
    const fs::path parentFolder = resume->runFolder(root);
    fs::path newRoot = root;
    if (fork) {
        p.runFolder =
            request.forkFolder.empty()
                ? defaultForkFolder(parentFolder, resume->epochLabel(*from), request.forkSuffix)
                : fs::absolute(request.forkFolder, ec).lexically_normal();
        if (fs::exists(p.runFolder, ec) && !fs::is_empty(p.runFolder, ec))
            return Error::at(p.runFolder.string(),
                             "already exists and is not empty: a fork gets a new folder");
        newRoot = p.runFolder / root.lexically_relative(parentFolder);
        p.forkEpochDir = newRoot / from->dir; // the layout's own place for it
    } else if (auto segment = resume->restartSegment(root)) {
        p.runFolder = parentFolder;
        p.segment = true;
        newRoot = *segment;
        if (fs::exists(newRoot, ec) && !fs::is_empty(newRoot, ec))
            return Error::at(newRoot.string(), "already exists and is not empty: the restart "
                                               "continues the run in a new folder");
    } else {
        // Never in place under a trainer still writing the run (one we launched).
        if (auto record = LaunchRecord::load(LaunchRecord::pathFor(root));
            record && record->latest())
            for (const LaunchSegment& running : record->latest()->segments)
                if (running.pid > 0 && ProcessProbe::alive(running.pid, running.pidStartTime))
                    return Error::at(root.string(),
                                     "its trainer is still running (pid " +
                                         std::to_string(running.pid) +
                                         "): stop it first (ckpt stop RUN), then restart");
        p.runFolder = parentFolder;
        for (const Epoch& e : run.epochs)
            if (e.number > request.fromEpoch)
                p.superseded.push_back(e.number);
        p.supersededDir = root / ".ckpt-studio" / "superseded" / localStamp();
        for (int n = 2; fs::exists(p.supersededDir, ec); ++n)
            p.supersededDir =
                root / ".ckpt-studio" / "superseded" / (localStamp() + "-" + std::to_string(n));
        // A plain link goes to its target; a stepwise one only when it names an
        // epoch that goes aside.
        for (const Resume::LinkRule& rule : resume->restartLinks()) {
            const auto now = run.linkedEpoch(rule.name);
            if (rule.stepwise && !(now && *now > request.fromEpoch))
                continue;
            if (const auto to = resume->linkTargetUpTo(run, rule.name, request.fromEpoch))
                p.links.push_back({rule.name, *to, rule.stepwise});
        }
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
    for (auto& [key, value] : resume->values(run, *from, newRoot, p.runFolder))
        p.values[key] = value;
    p.values["checkpoint"] = (fork ? p.forkEpochDir : root / from->dir).string();
    p.values["config"] = plan.configFile;
    p.values["run_dir"] = newRoot.string();
    p.values["output_dir"] = p.runFolder.string();
    if (const std::string link = resume->newestLink(); !link.empty())
        p.newestLink = (newRoot / link).string();
    p.requeueArguments = resume->requeueArguments();
    setSlurm(p, request.slurm);
    auto argv = CommandTemplate(commandTemplate).expand(p.values);
    if (!argv)
        return argv.error();
    plan.argv = std::move(*argv);
    return p;
}

} // namespace ckpt
