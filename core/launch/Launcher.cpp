#include "launch/Launcher.h"

#include "launch/LocalBackend.h"
#include "launch/SlurmBackend.h"
#include "ops/RunLock.h"

#include <thread>

namespace ckpt {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

Result<bool> refreshAttempt(LaunchAttempt& attempt)
{
    if (attempt.plan.backend == LaunchPlan::Backend::Slurm)
        return SlurmBackend::refresh(attempt);
    return LocalBackend::refresh(attempt);
}

bool isUnder(const fs::path& path, const fs::path& folder)
{
    const std::string p = path.lexically_normal().string();
    std::string f = folder.lexically_normal().string();
    if (!f.empty() && f.back() != '/')
        f += '/';
    return (p + "/").rfind(f, 0) == 0;
}

} // namespace

Launcher::Launcher(LaunchRegistry registry) : m_registry(std::move(registry)) {}

Result<LaunchRecord> Launcher::launch(const LaunchPlan& planIn) const
{
    LaunchPlan plan = planIn;
    if (plan.runRoot.empty())
        return Error::at({}, "the launch plan names no run root");
    plan.runRoot = fs::absolute(plan.runRoot).lexically_normal().string();
    if (plan.workingDir.empty())
        plan.workingDir = plan.runRoot;
    if (plan.name.empty())
        plan.name = fs::path(plan.runRoot).filename().string();
    std::error_code ec;
    fs::create_directories(plan.runRoot, ec);
    if (ec)
        return Error::at(plan.runRoot, "cannot create the run folder: " + ec.message());

    auto lock = RunLock::acquire(plan.runRoot);
    if (!lock)
        return lock.error();
    LaunchRecord record;
    const fs::path recordPath = LaunchRecord::pathFor(plan.runRoot);
    if (fs::exists(recordPath, ec)) {
        auto loaded = LaunchRecord::load(recordPath);
        if (!loaded)
            return loaded.error();
        record = std::move(loaded.value());
        if (const LaunchAttempt* last = record.latest();
            last && !isFinished(last->state) && last->state != RunState::Requeued)
            return Error::at(plan.runRoot, std::string("the run's last launch is still ") +
                                               runStateName(last->state) + "; stop it first");
    }
    record.runRoot = plan.runRoot;
    record.name = plan.name;

    LaunchAttempt attempt;
    attempt.index = static_cast<int>(record.attempts.size()) + 1;
    attempt.plan = plan;
    attempt.submitted = isoNow();
    const fs::path dir = LaunchRecord::launchDir(plan.runRoot);
    const std::string base = (dir / ("attempt-" + std::to_string(attempt.index))).string();
    attempt.logPath = base + ".log";
    attempt.eventsPath = base + ".events";
    Status started;
    if (plan.backend == LaunchPlan::Backend::Slurm) {
        attempt.scriptPath = base + ".sbatch";
        started = SlurmBackend::submit(plan, attempt);
    } else {
        started = LocalBackend::start(plan, attempt);
    }
    if (!started && attempt.segments.empty() && attempt.jobId.empty())
        return started.error();
    if (!started) {
        attempt.state = RunState::Failed;
        attempt.ended = isoNow();
    }
    record.attempts.push_back(std::move(attempt));
    if (Status st = record.save(); !st)
        return st.error();
    if (Status st = m_registry.addLaunched({plan.runRoot, plan.name, {}}); !st)
        return st.error();
    if (!started)
        return started.error();
    return record;
}

Result<LaunchRecord> Launcher::refresh(const fs::path& runRoot)
{
    auto record = LaunchRecord::load(LaunchRecord::pathFor(runRoot));
    if (!record)
        return record.error();
    bool changed = false;
    std::string slurmError;
    for (LaunchAttempt& a : record->attempts) {
        if (isFinished(a.state) && a.state != RunState::Lost)
            continue;
        auto r = refreshAttempt(a);
        if (!r)
            slurmError = r.error().message;
        else
            changed = changed || *r;
    }
    if (changed) {
        auto lock = RunLock::acquire(runRoot);
        if (!lock)
            return lock.error();
        if (Status st = record->save(); !st)
            return st.error();
    }
    if (!slurmError.empty())
        return Error::at(runRoot.string(), slurmError);
    return record;
}

Result<LaunchRecord> Launcher::stop(const fs::path& runRoot, std::chrono::milliseconds grace,
                                    const Progress& progress)
{
    auto record = refresh(runRoot);
    if (!record)
        return record.error();
    LaunchAttempt* attempt = record->latest();
    if (!attempt || isFinished(attempt->state))
        return Error::at(runRoot.string(),
                         std::string("nothing to stop: the run is ") +
                             (attempt ? runStateName(attempt->state) : "not launched"));
    Status st = attempt->plan.backend == LaunchPlan::Backend::Slurm
                    ? SlurmBackend::cancel(*attempt)
                    : LocalBackend::stop(*attempt, grace, progress);
    if (!st)
        return st.error();
    // scancel returns at once; Slurm takes a moment (KillWait) to end the job.
    const auto deadline =
        std::chrono::steady_clock::now() + std::max<std::chrono::milliseconds>(grace, 5s);
    for (;;) {
        auto now = refresh(runRoot);
        if (!now || isFinished(now->state()) || progress.cancelled() ||
            std::chrono::steady_clock::now() > deadline)
            return now;
        std::this_thread::sleep_for(200ms);
    }
}

Result<std::vector<Launcher::Listed>> Launcher::runs(const fs::path& under,
                                                     const Progress& progress) const
{
    auto entries = m_registry.launched();
    if (!entries)
        return entries.error();
    std::vector<Listed> out;
    std::uint64_t done = 0;
    for (const LaunchRegistry::Launched& e : *entries) {
        if (progress.cancelled())
            return Error::at(m_registry.file().string(), "cancelled");
        progress.report({done++, entries->size(), "runs", e.runRoot});
        if (!under.empty() && !isUnder(e.runRoot, fs::absolute(under)))
            continue;
        Listed listed{e, std::nullopt, {}};
        auto record = refresh(e.runRoot);
        if (record) {
            listed.record = std::move(record.value());
        } else {
            listed.error = record.error().message;
            // A Slurm query failure still leaves a readable record.
            auto stale = LaunchRecord::load(LaunchRecord::pathFor(e.runRoot));
            if (stale)
                listed.record = std::move(stale.value());
        }
        out.push_back(std::move(listed));
    }
    return out;
}

} // namespace ckpt
