#include "launch/Launcher.h"

#include "launch/LocalBackend.h"
#include "launch/SlurmBackend.h"
#include "launch/SlurmBatchScript.h"
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

namespace {

// Absolute root, a working directory and a name; the run folder made.
Result<LaunchPlan> normalized(const LaunchPlan& planIn)
{
    LaunchPlan plan = planIn;
    if (plan.runRoot.empty())
        return Error::at({}, "the launch plan names no run root");
    plan.runRoot = fs::absolute(plan.runRoot).lexically_normal().string();
    if (plan.workingDir.empty())
        plan.workingDir = plan.runRoot;
    if (plan.name.empty())
        plan.name = fs::path(plan.runRoot).filename().string();
    return plan;
}

// The run's record (empty for a first launch), refused while a launch runs.
Result<LaunchRecord> openRecord(const LaunchPlan& plan)
{
    LaunchRecord record;
    std::error_code ec;
    const fs::path recordPath = LaunchRecord::pathFor(plan.runRoot);
    if (fs::exists(recordPath, ec)) {
        auto loaded = LaunchRecord::load(recordPath);
        if (!loaded)
            return loaded.error();
        record = std::move(loaded.value());
        // (A local attempt whose launcher was killed before it started settles as lost.)
        // (A Slurm attempt whose launcher was killed around sbatch gets its job id.)
        if (!record.attempts.empty() &&
            (record.attempts.back().plan.backend == LaunchPlan::Backend::Local ||
             record.attempts.back().jobId.empty()))
            (void)refreshAttempt(record.attempts.back());
        if (const LaunchAttempt* last = record.latest();
            last && !isFinished(last->state) && last->state != RunState::Requeued)
            return Error::at(plan.runRoot, std::string("the run's last launch is still ") +
                                               runStateName(last->state) + "; stop it first");
    }
    record.runRoot = plan.runRoot;
    record.name = plan.name;
    return record;
}

LaunchAttempt attemptAfter(const LaunchRecord& record, const LaunchPlan& plan)
{
    LaunchAttempt attempt;
    attempt.index = static_cast<int>(record.attempts.size()) + 1;
    attempt.plan = plan;
    const fs::path dir = LaunchRecord::launchDir(plan.runRoot);
    const std::string base = (dir / ("attempt-" + std::to_string(attempt.index))).string();
    attempt.logPath = base + ".log";
    attempt.eventsPath = base + ".events";
    if (plan.backend == LaunchPlan::Backend::Slurm)
        attempt.scriptPath = base + ".sbatch";
    return attempt;
}

// `dirMade`: the launch folder did not exist before this attempt.
void removeAttemptFiles(const LaunchAttempt& attempt, bool dirMade)
{
    std::error_code ec;
    for (const std::string& f : {attempt.logPath, attempt.eventsPath, attempt.scriptPath})
        if (!f.empty())
            fs::remove(f, ec);
    if (dirMade)
        fs::remove(fs::path(attempt.logPath).parent_path(), ec); // only when empty
}

std::string arrayOutput(const LaunchPlan& first)
{
    return (LaunchRecord::launchDir(first.runRoot) / "slurm-array-%A_%a.out").string();
}

} // namespace

LaunchAttempt Launcher::nextAttempt(const LaunchPlan& planIn)
{
    auto plan = normalized(planIn);
    if (!plan)
        return {};
    auto record = openRecord(*plan);
    return attemptAfter(record ? *record : LaunchRecord{}, *plan);
}

std::string Launcher::batchScript(const std::vector<LaunchPlan>& plansIn, int parallel)
{
    std::vector<LaunchPlan> plans;
    std::vector<LaunchAttempt> attempts;
    for (const LaunchPlan& p : plansIn) {
        auto plan = normalized(p);
        if (!plan)
            return {};
        attempts.push_back(nextAttempt(*plan));
        plans.push_back(std::move(*plan));
    }
    if (plans.size() == 1)
        return SlurmBatchScript::render(plans.front(), attempts.front());
    return plans.empty() ? std::string()
                         : SlurmBatchScript::renderArray(plans, attempts, parallel,
                                                         arrayOutput(plans.front()));
}

Result<LaunchRecord> Launcher::launch(const LaunchPlan& planIn) const
{
    auto normal = normalized(planIn);
    if (!normal)
        return normal.error();
    const LaunchPlan& plan = *normal;
    std::error_code ec;
    fs::create_directories(plan.runRoot, ec);
    if (ec)
        return Error::at(plan.runRoot, "cannot create the run folder: " + ec.message());

    auto lock = RunLock::acquire(plan.runRoot);
    if (!lock)
        return lock.error();
    auto opened = openRecord(plan);
    if (!opened)
        return opened.error();
    if (Status st = m_registry.checkWritable(); !st)
        return st.error();
    LaunchRecord& record = *opened;
    LaunchAttempt attempt = attemptAfter(record, plan);
    attempt.submitted = isoNow();
    const bool dirMade = !fs::exists(LaunchRecord::launchDir(plan.runRoot), ec);
    // The attempt is written down (record and registry) before the trainer
    // starts or sbatch runs: this process killed meanwhile leaves a listed
    // attempt that refresh completes (a local supervisor's events; a Slurm
    // job found by its script or events), never a trainer no record names.
    const bool recordExisted = fs::exists(LaunchRecord::pathFor(plan.runRoot), ec);
    bool listed = false;
    if (auto known = m_registry.launched())
        for (const LaunchRegistry::Launched& l : *known)
            listed = listed || fs::path(l.runRoot).lexically_normal() ==
                                   fs::path(plan.runRoot).lexically_normal();
    bool added = false;
    const auto unrecord = [&]() {
        if (recordExisted)
            (void)record.save();
        else
            fs::remove(LaunchRecord::pathFor(plan.runRoot), ec);
        if (added && !listed)
            (void)m_registry.forget(plan.runRoot);
    };
    {
        LaunchRecord pending = record;
        pending.attempts.push_back(attempt);
        if (Status st = pending.save(); !st) { // nothing written (atomic)
            removeAttemptFiles(attempt, dirMade);
            return st.error();
        }
        if (Status st = m_registry.addLaunched({plan.runRoot, plan.name, {}}); !st) {
            unrecord();
            removeAttemptFiles(attempt, dirMade);
            return st.error();
        }
        added = true;
    }
    const Status started = plan.backend == LaunchPlan::Backend::Slurm
                               ? SlurmBackend::submit(plan, attempt)
                               : LocalBackend::start(plan, attempt);
    if (!started && attempt.segments.empty() && attempt.jobId.empty()) {
        unrecord();
        removeAttemptFiles(attempt, dirMade); // nothing ran: nothing of it is kept
        return started.error();
    }
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

Result<std::vector<LaunchRecord>> Launcher::launchArray(const std::vector<LaunchPlan>& plansIn,
                                                        int parallel) const
{
    if (plansIn.empty())
        return Error::at({}, "a job array needs at least one run");
    if (plansIn.size() == 1) { // a plain job, as batchScript() shows it
        auto record = launch(plansIn.front());
        if (!record)
            return record.error();
        return std::vector<LaunchRecord>{std::move(*record)};
    }
    std::vector<LaunchPlan> plans;
    std::vector<LaunchRecord> records;
    std::vector<LaunchAttempt> attempts;
    std::vector<RunLock> locks;
    std::vector<bool> dirsMade;
    std::error_code ec;
    for (const LaunchPlan& p : plansIn) {
        auto plan = normalized(p);
        if (!plan)
            return plan.error();
        if (plan->backend != LaunchPlan::Backend::Slurm)
            return Error::at(plan->runRoot, "a job array runs on Slurm only");
        fs::create_directories(plan->runRoot, ec);
        if (ec)
            return Error::at(plan->runRoot, "cannot create the run folder: " + ec.message());
        auto lock = RunLock::acquire(plan->runRoot);
        if (!lock)
            return lock.error();
        locks.push_back(std::move(*lock));
        auto record = openRecord(*plan);
        if (!record)
            return record.error();
        attempts.push_back(attemptAfter(*record, *plan));
        dirsMade.push_back(!fs::exists(LaunchRecord::launchDir(plan->runRoot), ec));
        attempts.back().submitted = isoNow();
        records.push_back(std::move(*record));
        plans.push_back(std::move(*plan));
    }
    if (Status st = m_registry.checkWritable(); !st)
        return st.error();
    auto jobId = SlurmBackend::submitArray(plans, attempts, parallel, arrayOutput(plans.front()));
    if (!jobId) {
        for (std::size_t i = 0; i < attempts.size(); ++i)
            removeAttemptFiles(attempts[i], dirsMade[i]);
        return jobId.error();
    }
    for (std::size_t i = 0; i < plans.size(); ++i) {
        records[i].attempts.push_back(std::move(attempts[i]));
        if (Status st = records[i].save(); !st)
            return st.error();
        if (Status st = m_registry.addLaunched({plans[i].runRoot, plans[i].name, {}}); !st)
            return st.error();
    }
    return records;
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
            std::error_code ec;
            listed.gone = !fs::exists(e.runRoot, ec) && !ec;
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
