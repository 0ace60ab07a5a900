#include "launch/SlurmBackend.h"

#include "io/AtomicFile.h"
#include "launch/LaunchEvents.h"
#include "launch/SlurmBatchScript.h"
#include "launch/SlurmClient.h"

#include <QDateTime>

#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

RunState SlurmBackend::stateFromSlurm(const std::string& s)
{
    if (s == "PENDING" || s == "REQUEUED" || s == "REQUEUE_HOLD" || s == "REQUEUE_FED" ||
        s == "CONFIGURING" || s == "RESV_DEL_HOLD" || s == "SUSPENDED" || s == "STOPPED" ||
        s == "RESIZING")
        return RunState::Pending;
    if (s == "RUNNING" || s == "COMPLETING" || s == "SIGNALING" || s == "STAGE_OUT")
        return RunState::Running;
    if (s == "COMPLETED")
        return RunState::Completed;
    if (s == "CANCELLED" || s == "PREEMPTED" || s == "REVOKED")
        return RunState::Stopped;
    return RunState::Failed;
}

namespace {

// The attempt's folders and an empty events file (the batch shell appends to it).
Status prepareFiles(const LaunchPlan& plan, const LaunchAttempt& attempt)
{
    if (plan.argv.empty())
        return Error::at(plan.runRoot, "nothing to launch: the argv is empty");
    std::error_code ec;
    if (!fs::is_directory(plan.workingDir, ec))
        return Error::at(plan.workingDir, "the working directory does not exist");
    for (const std::string& f : {attempt.logPath, attempt.eventsPath, attempt.scriptPath})
        fs::create_directories(fs::path(f).parent_path(), ec);
    const int fd =
        ::open(attempt.eventsPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
        return Error{osError(attempt.eventsPath, errno), attempt.eventsPath};
    ::close(fd);
    return {};
}

// Written down before sbatch, no job found long after: the launching process
// died before sbatch ran (sbatch itself gives up well within a minute).
bool neverSubmitted(const LaunchAttempt& attempt)
{
    const QDateTime submitted =
        QDateTime::fromString(QString::fromStdString(attempt.submitted), Qt::ISODate);
    return submitted.isValid() && submitted.secsTo(QDateTime::currentDateTimeUtc()) > 60;
}

} // namespace

Status SlurmBackend::submit(const LaunchPlan& plan, LaunchAttempt& attempt)
{
    if (Status st = prepareFiles(plan, attempt); !st)
        return st;
    if (Status st =
            writeFileAtomically(attempt.scriptPath, SlurmBatchScript::render(plan, attempt));
        !st)
        return st;
    auto id = SlurmClient::submit(attempt.scriptPath);
    if (!id)
        return id.error();
    attempt.jobId = *id;
    attempt.slurmState = "PENDING";
    attempt.state = RunState::Pending;
    return {};
}

Result<std::string> SlurmBackend::submitArray(const std::vector<LaunchPlan>& plans,
                                              std::vector<LaunchAttempt>& attempts, int parallel,
                                              const std::string& slurmOutput)
{
    if (plans.empty() || plans.size() != attempts.size())
        return Error::at({}, "a job array needs one attempt per run");
    const std::string script =
        SlurmBatchScript::renderArray(plans, attempts, parallel, slurmOutput);
    for (std::size_t i = 0; i < plans.size(); ++i) {
        if (Status st = prepareFiles(plans[i], attempts[i]); !st)
            return st.error();
        if (Status st = writeFileAtomically(attempts[i].scriptPath, script); !st)
            return st.error();
    }
    auto id = SlurmClient::submit(attempts.front().scriptPath);
    if (!id)
        return id.error();
    for (std::size_t i = 0; i < attempts.size(); ++i) {
        attempts[i].jobId = *id + "_" + std::to_string(i);
        attempts[i].slurmState = "PENDING";
        attempts[i].state = RunState::Pending;
    }
    return *id;
}

Result<bool> SlurmBackend::refresh(LaunchAttempt& attempt)
{
    const auto events = LaunchEvents::read(attempt.eventsPath);
    bool changed = LaunchEvents::apply(events, attempt);
    if (attempt.jobId.empty()) {
        // Recorded before sbatch (Launcher), and the launching process died
        // before it wrote the job id down: the job is found by its script
        // (queued) or its events (started); with neither long after, sbatch
        // never ran and the attempt is lost.
        if (const std::string started = LaunchEvents::slurmJobId(events); !started.empty()) {
            attempt.jobId = started;
            changed = true;
        } else if (attempt.state == RunState::Pending && !attempt.scriptPath.empty()) {
            auto queued = SlurmClient::findByScript(attempt.scriptPath);
            if (!queued)
                return queued.error();
            if (*queued) {
                attempt.jobId = **queued;
                attempt.slurmState = "PENDING";
                changed = true;
            } else if (neverSubmitted(attempt)) {
                attempt.state = RunState::Lost;
                attempt.ended = isoNow();
                return true;
            }
        }
        if (attempt.jobId.empty())
            return changed;
    }
    if (isFinished(attempt.state) && !attempt.slurmState.empty() &&
        stateFromSlurm(attempt.slurmState) == attempt.state)
        return changed; // final and already recorded: no need to ask Slurm
    auto info = SlurmClient::query(attempt.jobId, LaunchEvents::slurmJobId(events));
    if (!info)
        return info.error();
    RunState state = stateFromSlurm(info->state);
    if (info->state != attempt.slurmState) {
        attempt.slurmState = info->state;
        changed = true;
    }
    // The batch shell killed before it wrote an exit (scancel, node failure):
    // its segment ends with the job.
    if (!attempt.segments.empty()) {
        LaunchSegment& last = attempt.segments.back();
        if (last.state == RunState::Running && isFinished(state)) {
            last.state = state;
            last.ended = isoNow();
            if (info->exitCode)
                last.exitStatus = *info->exitCode;
            changed = true;
        }
    }
    if (state != attempt.state) {
        attempt.state = state;
        changed = true;
    }
    if (isFinished(state) && attempt.ended.empty()) {
        attempt.ended = !attempt.segments.empty() && !attempt.segments.back().ended.empty()
                            ? attempt.segments.back().ended
                            : isoNow();
        changed = true;
    }
    return changed;
}

Status SlurmBackend::cancel(LaunchAttempt& attempt)
{
    if (attempt.jobId.empty())
        return Error::at(attempt.scriptPath, "the launch has no Slurm job id");
    return SlurmClient::cancel(attempt.jobId);
}

} // namespace ckpt
