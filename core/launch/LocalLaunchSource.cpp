#include "launch/LocalLaunchSource.h"

#include "launch/LaunchSweep.h"
#include "launch/Launcher.h"
#include "layout/Layout.h"
#include "layout/Resume.h"

#include <algorithm>

namespace ckpt {

LaunchParameters LaunchParameters::from(const ParamSet& params)
{
    LaunchParameters out;
    out.file = params.origin();
    for (const auto& p : params.params())
        out.list.push_back({p.section, p.key, p.value.pythonLiteral(), p.line});
    return out;
}

LocalLaunchSource::LocalLaunchSource(PrepRequest base) : m_base(std::move(base)) {}

std::string LocalLaunchSource::runName() const
{
    return m_base.runRoot.string();
}

Result<PrepRequest> LocalLaunchSource::request(const LaunchChoice& choice) const
{
    PrepRequest r = m_base;
    r.mode = choice.mode;
    r.configFile = choice.configFile;
    r.commandTemplate = choice.commandTemplate;
    r.force = choice.force;
    r.backend = LaunchPlan::Backend::Local; // render() applies the chosen one
    r.edits.clear();
    for (const std::string& set : choice.sets) {
        auto edit = ParamEdit::parse(set);
        if (!edit)
            return edit.error();
        r.edits.push_back(std::move(*edit));
    }
    if (choice.mode == LaunchPlan::Mode::Fork && choice.sweep.empty() && choice.forkName.empty()) {
        // Named for what it changes: RUN000-fork-e003-learning_rate-0.003.
        for (const ParamEdit& e : r.edits) {
            if (!r.forkSuffix.empty())
                r.forkSuffix += '-';
            r.forkSuffix += LaunchSweep::folderSuffix(e);
        }
    } else if (choice.mode == LaunchPlan::Mode::Fork && choice.sweep.empty()) {
        const std::string& name = choice.forkName;
        if (name == "." || name == ".." || name.find('/') != std::string::npos ||
            name.front() == '.')
            return Error{"the fork's name '" + name +
                             "' must be a plain folder name (no '/', not starting with '.')",
                         name};
        std::error_code ec;
        const auto root = std::filesystem::absolute(m_base.runRoot, ec).lexically_normal();
        r.forkFolder = LaunchPrep::runFolderOf(root).parent_path() / name;
    }
    return r;
}

Result<LaunchParameters> LocalLaunchSource::parameters(const LaunchChoice& choice,
                                                       const Progress&) const
{
    PrepRequest r = m_base;
    r.configFile = choice.configFile;
    auto params = LaunchPrep::parameters(r, LaunchRegistry());
    if (!params)
        return params.error();
    return LaunchParameters::from(*params);
}

Result<LaunchPreview> LocalLaunchSource::preview(const LaunchChoice& choice,
                                                 const Progress& progress) const
{
    auto r = request(choice);
    if (!r)
        return r.error();
    LaunchPreview out;
    if (!choice.sweep.empty()) {
        auto plans = LaunchSweep::prepare(*r, choice.sweep, LaunchRegistry(), progress);
        if (!plans)
            return plans.error();
        out.prepared = std::move(*plans);
    } else {
        auto one = LaunchPrep::prepare(*r, LaunchRegistry(), progress);
        if (!one)
            return one.error();
        out.prepared.push_back(std::move(*one));
    }
    const PreparedLaunch& first = out.prepared.front();
    out.parameters = LaunchParameters::from(first.original);
    out.configFile = first.original.origin();
    out.commandTemplate = first.plan.commandTemplate;
    out.checkFailures = first.checkFailures;
    out.forks = static_cast<int>(out.prepared.size());
    if (choice.mode == LaunchPlan::Mode::Fork && choice.sweep.empty())
        out.forkName = first.runFolder.filename().string();
    render(out, choice);
    return out;
}

std::string LocalLaunchSource::exampleCommand() const
{
    const Layout* layout = layoutAt(m_base.runRoot);
    const Resume* resume = layout ? layout->resume() : nullptr;
    return resume ? resume->exampleCommand() : LaunchSource::exampleCommand();
}

bool LocalLaunchSource::restartsBeside() const
{
    const Layout* layout = layoutAt(m_base.runRoot);
    const Resume* resume = layout ? layout->resume() : nullptr;
    return resume && resume->restartSegment(m_base.runRoot).has_value();
}

void LocalLaunchSource::render(LaunchPreview& preview, const LaunchChoice& choice) const
{
    const bool slurm = choice.backend == LaunchPlan::Backend::Slurm;
    std::string text;
    std::vector<LaunchPlan> plans;
    for (PreparedLaunch& p : preview.prepared) {
        p.plan.backend = choice.backend;
        SlurmOptions options = choice.slurm;
        options.jobName = p.plan.slurm.jobName; // a sweep's array is named for it
        LaunchPrep::setSlurm(p, std::move(options));
        if (!text.empty())
            text += '\n';
        text += LaunchPrep::describe(p);
        plans.push_back(p.plan);
    }
    if (preview.prepared.size() > 1) {
        std::string head = std::to_string(preview.prepared.size());
        head += " forks from epoch ";
        head += std::to_string(m_base.fromEpoch);
        head += ", ";
        head += slurm ? "one Slurm job array" : std::to_string(choice.parallel) + " at a time";
        text = head + ":\n\n" + text;
    }
    preview.text = std::move(text);
    preview.batchScript =
        slurm && !plans.empty()
            ? Launcher::batchScript(plans, choice.sweep.empty() ? 0 : choice.parallel)
            : std::string();
}

Result<LaunchOutcome> LocalLaunchSource::launch(const LaunchChoice& choice, LaunchPreview preview,
                                                const Progress&) const
{
    render(preview, choice);
    std::vector<PreparedLaunch>& runs = preview.prepared;
    if (runs.empty())
        return Error{"nothing planned to launch", m_base.runRoot.string()};
    LaunchOutcome out;
    if (choice.sweep.empty()) {
        PreparedLaunch& p = runs.front();
        if (Status st = LaunchPrep::apply(p); !st)
            return st.error();
        auto record = Launcher().launch(p.plan);
        if (!record) {
            // Nothing ran: put the run back as it was.
            const Status undone = LaunchPrep::undo(p);
            return Error{record.error().message +
                             (undone ? " (nothing was changed: the preparation was undone)"
                                     : " (undoing failed: " + undone.error().message + ")"),
                         p.plan.runRoot};
        }
        out.roots.push_back(p.plan.runRoot);
        return out;
    }
    if (Status st = LaunchSweep::apply(runs); !st)
        return st.error();
    for (const PreparedLaunch& p : runs)
        out.roots.push_back(p.plan.runRoot);
    if (choice.backend == LaunchPlan::Backend::Slurm) {
        auto records = LaunchSweep::submitArray(runs, choice.parallel, Launcher());
        if (!records)
            return records.error();
        return out;
    }
    out.queue = std::make_shared<SweepQueue>(std::move(runs), choice.parallel);
    out.queue->step(); // the first K start now; errors are the dialog's to show
    // Fails only when none started (each that could not was removed).
    const auto& items = out.queue->items();
    if (std::none_of(items.begin(), items.end(),
                     [](const SweepQueue::Item& i) { return i.record.has_value(); }))
        return Error{items.front().prepared.plan.runRoot + ": " + items.front().error +
                         " (the sweep's forks were removed)",
                     items.front().prepared.plan.runRoot};
    return out;
}

} // namespace ckpt
