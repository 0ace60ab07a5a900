#include "launch/LaunchPrep.h"

#include "io/AtomicFile.h"
#include "io/RegularFile.h"
#include "launch/CommandTemplate.h"
#include "launch/LaunchRecord.h"
#include "launch/RunConfigFinder.h"
#include "layout/Layout.h"
#include "ops/Relinker.h"
#include "ops/RunLock.h"

#include <QDateTime>

#include <cerrno>
#include <cmath>
#include <cstring>
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
    std::string base =
        parentFolder.filename().string() + "-fork-e" + fs::path(epochDir).filename().string();
    if (!suffix.empty())
        base += "-" + suffix;
    fs::path candidate = parentFolder.parent_path() / base;
    std::error_code ec;
    for (int n = 2; fs::exists(candidate, ec) && n < 1000; ++n)
        candidate = parentFolder.parent_path() / (base + "-" + std::to_string(n));
    return candidate;
}

// Hard-links (or, across file systems or where links are refused, copies)
// every file below `from` into the new directory `to`.
Status linkTree(const fs::path& from, const fs::path& to)
{
    std::error_code ec;
    fs::create_directories(to, ec);
    if (ec)
        return Error::at(to.string(), "cannot create the folder: " + ec.message());
    for (auto it = fs::recursive_directory_iterator(from, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
        const fs::path rel = it->path().lexically_relative(from);
        const fs::path target = to / rel;
        struct stat st
        {};
        if (::lstat(it->path().c_str(), &st) != 0)
            return Error{osError(it->path(), errno), it->path().string()};
        if (S_ISDIR(st.st_mode)) {
            fs::create_directories(target, ec);
            if (ec)
                return Error::at(target.string(), "cannot create the folder: " + ec.message());
            continue;
        }
        if (!S_ISREG(st.st_mode))
            return Error::at(it->path().string(), "is " + RegularFile::kindOf(st.st_mode) +
                                                      ", not a regular file: a "
                                                      "fork links files only");
        if (::link(it->path().c_str(), target.c_str()) == 0)
            continue;
        if (errno != EXDEV && errno != EPERM && errno != EMLINK)
            return Error{"cannot link " + osError(target, errno), target.string()};
        fs::copy_file(it->path(), target, fs::copy_options::none, ec);
        if (ec)
            return Error::at(target.string(),
                             "cannot copy " + it->path().string() + ": " + ec.message());
    }
    if (ec)
        return Error::at(from.string(), "cannot list: " + ec.message());
    return {};
}

// A symlink `link` -> `text`, created aside and renamed into place.
Status placeSymlink(const fs::path& link, const std::string& text)
{
    const fs::path aside = link.parent_path() / ("." + link.filename().string() + ".new");
    ::unlink(aside.c_str());
    if (::symlink(text.c_str(), aside.c_str()) != 0)
        return Error{"cannot create " + osError(aside, errno), aside.string()};
    if (::rename(aside.c_str(), link.c_str()) != 0) {
        const int err = errno;
        ::unlink(aside.c_str());
        return Error{"cannot place " + osError(link, err), link.string()};
    }
    return {};
}

Status copyIfPresent(const std::string& source, const fs::path& dir)
{
    if (source.empty())
        return {};
    std::error_code ec;
    if (!fs::is_regular_file(source, ec))
        return {};
    fs::copy_file(source, dir / fs::path(source).filename(), fs::copy_options::none, ec);
    if (ec)
        return Error::at(source, "cannot keep a copy in " + dir.string() + ": " + ec.message());
    return {};
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
    const fs::path r = root.lexically_normal();
    const fs::path parent = r.parent_path();
    if (r.filename() == "ckpts" && parent.filename() == "save")
        return parent.parent_path();
    if (r.filename() == "ckpts")
        return parent;
    return r;
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

    // Parameters: the run's config with the edits applied.
    std::string configFile = request.configFile.empty()
                                 ? std::string()
                                 : fs::absolute(request.configFile, ec).lexically_normal().string();
    if (configFile.empty()) {
        auto found = RunConfigFinder::configFor(root, registry);
        if (!found)
            return found.error();
        configFile = *found;
    }
    auto original = ParamSet::readFile(configFile);
    if (!original)
        return original.error();
    p.original = std::move(*original);
    auto text = ConfigWriter::render(p.original, request.edits);
    if (!text)
        return text.error();
    p.configText = std::move(*text);
    auto edited = ParamSet::parse(p.configText, configFile);
    if (!edited)
        return edited.error();

    std::string commandTemplate = request.commandTemplate;
    if (commandTemplate.empty()) {
        auto known = templateFor(root, registry);
        if (!known)
            return known.error();
        commandTemplate = *known;
    }

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
    const EpochFile* checked = from->checksummedFile();
    plan.parent = LaunchParent{root.string(),
                               request.fromEpoch,
                               checked && checked->algo == ChecksumAlgo::Crc32 ? checked->checksum
                                                                               : std::string(),
                               {}};
    for (const ParamEdit& e : request.edits) {
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

namespace {

// The edited configuration, a new file in `dir`; the plan's argv follows its name.
Status writeConfig(PreparedLaunch& p, const fs::path& root, fs::path& written)
{
    LaunchPlan& plan = p.plan;
    const fs::path dir = ConfigWriter::configsDir(root);
    auto made = ConfigWriter::writeNew(p.original, p.edits, dir);
    if (!made) {
        std::error_code ec;
        fs::remove(dir, ec); // only when empty: made by this attempt
        return made.error();
    }
    written = *made;
    if (written.string() != plan.configFile) {
        plan.configFile = written.string();
        p.values["config"] = plan.configFile;
        auto argv = CommandTemplate(plan.commandTemplate).expand(p.values);
        if (!argv)
            return argv.error();
        plan.argv = std::move(*argv);
    }
    return {};
}

// A fork is a new folder: made whole, or (on any failure, a full disk say)
// removed again, so no half-made run is left for a scan to find.
Status applyFork(PreparedLaunch& p, int from)
{
    std::error_code ec;
    const bool existed = fs::exists(p.runFolder, ec); // prepare() allows only an empty one
    fs::create_directories(p.runFolder, ec);
    if (ec)
        return Error::at(p.runFolder.string(), "cannot create the fork's folder: " + ec.message());
    auto made = [&]() -> Status {
        if (Status st = linkTree(p.parentRoot / p.epochDir, p.forkEpochDir); !st)
            return st;
        if (Status st = placeSymlink(fs::path(p.plan.runRoot) / "last", p.epochDir); !st)
            return st;
        // The parent's Keras CSV logs (training.log), cut at the fork epoch, where
        // the fork's trainer keeps them.
        const Layout* layout = layoutAt(p.parentRoot);
        const fs::path parentFolder = LaunchPrep::runFolderOf(p.parentRoot);
        for (const RunSource& source :
             layout ? layout->loadRun(p.parentRoot).sources : std::vector<RunSource>{}) {
            if (source.path.empty())
                continue;
            const fs::path rel = fs::path(source.path).lexically_relative(parentFolder);
            if (rel.empty() || *rel.begin() == "..")
                continue;
            auto text = RegularFile::read(source.path, RegularFile::kLogLimit);
            if (!text)
                return text.error();
            if (!text->starts_with("epoch,"))
                continue; // not a CSVLogger file: the fork starts without it
            if (Status st =
                    writeFileAtomically(p.runFolder / rel, LaunchPrep::cutTrainingLog(*text, from));
                !st)
                return st;
        }
        fs::path config;
        return writeConfig(p, fs::path(p.plan.runRoot), config);
    }();
    if (!made) {
        if (existed) {
            for (const auto& entry : fs::directory_iterator(p.runFolder, ec))
                fs::remove_all(entry.path(), ec);
        } else {
            fs::remove_all(p.runFolder, ec);
        }
        return Error{made.error().message + " (the fork was not made)", made.error().path};
    }
    return {};
}

// A restart writes its configuration first (a new file, nothing else touched
// if that fails), then moves the later epochs aside and relinks. Any failure
// on the way puts back what was done, so the run is as it was.
Status applyRestart(PreparedLaunch& p, int from)
{
    const Layout* layout = layoutAt(p.parentRoot);
    if (!layout)
        return Error::at(p.parentRoot.string(), "no checkpoint run here any more");
    fs::path config;
    if (Status st = writeConfig(p, p.parentRoot, config); !st)
        return st;
    std::error_code ec;
    std::vector<std::pair<fs::path, fs::path>> moved; // epoch dir -> aside
    bool supersededMade = false;
    std::vector<std::string> relinked;
    auto rollBack = [&](const Error& error) -> Status {
        std::string message = error.message;
        RelinkOptions options;
        options.force = true;
        for (std::size_t i = 0; i < relinked.size(); ++i)
            if (auto undone = Relinker::undo(p.parentRoot, options); !undone)
                message += "; could not put " + relinked[relinked.size() - 1 - i] +
                           " back: " + undone.error().message;
        for (auto it = moved.rbegin(); it != moved.rend(); ++it)
            if (::rename(it->second.c_str(), it->first.c_str()) != 0)
                message += "; could not move " + it->second.string() + " back to " +
                           it->first.string() + ": " + std::strerror(errno);
        // Folders this attempt made go too (fs::remove takes only empty ones).
        if (supersededMade) {
            fs::remove_all(p.supersededDir, ec);
            fs::remove(p.supersededDir.parent_path(), ec);
        }
        fs::remove(config, ec);
        fs::remove(config.parent_path(), ec);
        return Error{message + " (the restart was not prepared)", error.path};
    };
    {
        auto lock = RunLock::acquire(p.parentRoot);
        if (!lock)
            return rollBack(lock.error());
        const Run run = layout->loadRun(p.parentRoot);
        // What is there now, not what was planned: an epoch saved since moves aside too.
        p.superseded.clear();
        for (const Epoch& e : run.epochs)
            if (e.number > from)
                p.superseded.push_back(e.number);
        supersededMade = !fs::exists(p.supersededDir, ec);
        fs::create_directories(p.supersededDir, ec);
        if (ec)
            return rollBack(
                Error::at(p.supersededDir.string(), "cannot create the folder: " + ec.message()));
        for (const RunSource& source : run.sources)
            if (Status st = copyIfPresent(source.path, p.supersededDir); !st)
                return rollBack(st.error());
        for (const Epoch& e : run.epochs) {
            if (e.number <= from)
                continue;
            const fs::path dir = run.pathOf(e);
            const fs::path aside = p.supersededDir / e.dir; // the layout's relative place
            fs::create_directories(aside.parent_path(), ec);
            if (::rename(dir.c_str(), aside.c_str()) != 0)
                return rollBack(
                    Error{"cannot move " + dir.string() + " aside: " + osError(aside, errno),
                          dir.string()});
            moved.emplace_back(dir, aside);
        }
    }
    RelinkOptions options;
    options.force = true; // checked in prepare(), refusals shown and forced there
    if (p.bestTo) {
        auto relink = Relinker::relink(p.parentRoot, "best", *p.bestTo, options);
        if (!relink)
            return rollBack(relink.error());
        if (relink->changed)
            relinked.push_back("best");
    }
    auto relink = Relinker::relink(p.parentRoot, "last", from, options);
    if (!relink)
        return rollBack(relink.error());
    return {};
}

} // namespace

Status LaunchPrep::apply(PreparedLaunch& p)
{
    const int from = p.plan.parent ? p.plan.parent->epoch : 0;
    return p.plan.mode == LaunchPlan::Mode::Fork ? applyFork(p, from) : applyRestart(p, from);
}

} // namespace ckpt
