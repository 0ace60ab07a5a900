#include "launch/LocalBackend.h"

#include "io/AtomicFile.h"
#include "launch/LaunchEvents.h"
#include "launch/ProcessProbe.h"

#include <QDateTime>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace ckpt {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// An attempt written down before its supervisor started (Launcher records
// first) that has no start event long after: the launching process died
// before it started anything (kill -9). start() gives up after 10 s itself.
bool neverStarted(const LaunchAttempt& attempt)
{
    if (!attempt.segments.empty() ||
        (attempt.state != RunState::Pending && attempt.state != RunState::Lost))
        return false;
    const QDateTime submitted =
        QDateTime::fromString(QString::fromStdString(attempt.submitted), Qt::ISODate);
    return submitted.isValid() && submitted.secsTo(QDateTime::currentDateTimeUtc()) > 60 &&
           LaunchEvents::read(attempt.eventsPath).empty();
}

// $1 = events file, the rest = the trainer's argv. The outer shell returns at
// once; the background subshell (reparented, in our new session) supervises.
// TERM is trapped so that a stop aimed at the whole group still lets it
// record the trainer's exit; `wait` returns early on a trapped signal, so it
// loops until the child is really gone.
constexpr const char* kSupervisor = R"sh(ev=$1; shift
(
  trap : TERM
  "$@" </dev/null &
  child=$!
  read -r self _ </proc/self/stat
  printf '{"event":"start","time":%s,"pid":%s,"supervisor":%s,"host":"%s","restart":0}\n' "$(date +%s)" "$child" "$self" "$(uname -n)" >> "$ev"
  while :; do
    wait "$child"; st=$?
    kill -0 "$child" 2>/dev/null || break
  done
  printf '{"event":"exit","time":%s,"pid":%s,"status":%s}\n' "$(date +%s)" "$child" "$st" >> "$ev"
) &
)sh";

std::vector<std::string> environmentWith(const std::map<std::string, std::string>& additions)
{
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        const std::string entry(*e);
        const auto eq = entry.find('=');
        if (eq != std::string::npos && additions.count(entry.substr(0, eq)))
            continue;
        env.push_back(entry);
    }
    for (const auto& [k, v] : additions)
        env.push_back(k + "=" + v);
    return env;
}

std::vector<char*> cArray(std::vector<std::string>& strings)
{
    std::vector<char*> out;
    for (std::string& s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

LaunchSegment* runningSegment(LaunchAttempt& attempt)
{
    for (auto it = attempt.segments.rbegin(); it != attempt.segments.rend(); ++it)
        if (it->state == RunState::Running)
            return &*it;
    return nullptr;
}

} // namespace

Result<std::string> LocalBackend::resolveProgram(const std::string& program,
                                                 const std::string& workingDir,
                                                 const std::string& path)
{
    if (program.empty())
        return Error::at({}, "the command is empty");
    auto executable = [](const fs::path& p) {
        std::error_code ec;
        return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
    };
    if (program.find('/') != std::string::npos) {
        const fs::path p =
            fs::path(program).is_absolute() ? fs::path(program) : fs::path(workingDir) / program;
        if (!executable(p))
            return Error::at(p.string(), "not an executable file");
        return program;
    }
    std::size_t start = 0;
    while (start <= path.size()) {
        std::size_t end = path.find(':', start);
        if (end == std::string::npos)
            end = path.size();
        const std::string dir = path.substr(start, end - start);
        const fs::path candidate = fs::path(dir.empty() ? "." : dir) / program;
        if (executable(candidate))
            return program;
        start = end + 1;
    }
    return Error::at({}, "program '" + program + "' not found in PATH (" + path + ")");
}

Status LocalBackend::start(const LaunchPlan& plan, LaunchAttempt& attempt)
{
    if (plan.argv.empty())
        return Error::at(plan.runRoot, "nothing to launch: the argv is empty");
    if (attempt.logPath.empty() || attempt.eventsPath.empty())
        return Error::at(plan.runRoot, "the launch attempt has no log or events file");
    std::error_code ec;
    if (!fs::is_directory(plan.workingDir, ec))
        return Error::at(plan.workingDir, "the working directory does not exist");
    const char* envPath = std::getenv("PATH");
    const auto pathIt = plan.environment.find("PATH");
    const std::string searchPath =
        pathIt != plan.environment.end() ? pathIt->second : (envPath ? envPath : "/usr/bin:/bin");
    if (auto program = resolveProgram(plan.argv.front(), plan.workingDir, searchPath); !program)
        return program.error();
    fs::create_directories(fs::path(attempt.logPath).parent_path(), ec);
    fs::create_directories(fs::path(attempt.eventsPath).parent_path(), ec);
    // Both files exist before the supervisor starts: a follower can open the log at once.
    for (const std::string& f : {attempt.logPath, attempt.eventsPath}) {
        const int fd = ::open(f.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (fd < 0)
            return Error{osError(f, errno), f};
        ::close(fd);
    }

    std::vector<std::string> args = {"/bin/sh", "-c", kSupervisor, "ckpt-supervise",
                                     attempt.eventsPath};
    args.insert(args.end(), plan.argv.begin(), plan.argv.end());
    std::vector<std::string> env = environmentWith(plan.environment);
    auto argvC = cArray(args);
    auto envC = cArray(env);

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_addchdir_np(&actions, plan.workingDir.c_str());
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, attempt.logPath.c_str(),
                                     O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    sigset_t none;
    sigset_t all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setflags(&attr,
                             POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t shell = 0;
    const int err = ::posix_spawn(&shell, "/bin/sh", &actions, &attr, argvC.data(), envC.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (err != 0)
        return Error::at(plan.workingDir,
                         std::string("cannot start /bin/sh: ") + std::strerror(err));
    int status = 0;
    while (::waitpid(shell, &status, 0) < 0 && errno == EINTR) {
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return Error::at(attempt.logPath, "the supervising shell failed to start (see the log)");

    // The supervisor reports the trainer's pid in its start event.
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    for (;;) {
        const auto events = LaunchEvents::read(attempt.eventsPath);
        if (!events.empty()) {
            LaunchEvents::apply(events, attempt);
            break;
        }
        if (std::chrono::steady_clock::now() > deadline)
            return Error::at(attempt.eventsPath,
                             "the supervisor did not report the trainer's start within 10 s");
        std::this_thread::sleep_for(5ms);
    }
    if (!attempt.segments.empty()) {
        LaunchSegment& seg = attempt.segments.back();
        if (const auto info = ProcessProbe::read(seg.pid)) {
            seg.pidStartTime = info->startTime;
            seg.supervisorPid = info->ppid;
        }
    }
    refresh(attempt);
    return {};
}

bool LocalBackend::refresh(LaunchAttempt& attempt)
{
    bool changed = LaunchEvents::apply(LaunchEvents::read(attempt.eventsPath), attempt);
    const auto gone = [](const LaunchSegment& seg) {
        return !ProcessProbe::alive(seg.pid, seg.pidStartTime) &&
               (seg.supervisorPid == 0 || !ProcessProbe::alive(seg.supervisorPid));
    };
    bool anyGone = false;
    for (const LaunchSegment& seg : attempt.segments)
        anyGone = anyGone || (seg.state == RunState::Running && gone(seg));
    // The supervisor writes the exit event right after the trainer ends, then
    // exits: both may have gone since the events were read. Read them again
    // before calling a run lost (only one that ended without an event is).
    if (anyGone)
        changed = LaunchEvents::apply(LaunchEvents::read(attempt.eventsPath), attempt) || changed;
    for (LaunchSegment& seg : attempt.segments) {
        if (seg.state == RunState::Running && gone(seg)) {
            seg.state = RunState::Lost;
            seg.ended = isoNow();
            changed = true;
        }
    }
    const bool abandoned = neverStarted(attempt);
    const RunState state = attempt.segments.empty()
                               ? (abandoned ? RunState::Lost : RunState::Pending)
                               : attempt.segments.back().state;
    if (state != attempt.state) {
        attempt.state = state;
        changed = true;
    }
    const std::string ended = !isFinished(state)         ? std::string()
                              : attempt.segments.empty() ? attempt.submitted
                                                         : attempt.segments.back().ended;
    if (ended != attempt.ended) {
        attempt.ended = ended;
        changed = true;
    }
    return changed;
}

Status LocalBackend::stop(LaunchAttempt& attempt, std::chrono::milliseconds grace,
                          const Progress& progress)
{
    refresh(attempt);
    LaunchSegment* seg = runningSegment(attempt);
    if (!seg)
        return Error::at(attempt.logPath, std::string("the run is not running (") +
                                              runStateName(attempt.state) + ")");
    const std::int64_t pid = seg->pid;
    const std::int64_t supervisor = seg->supervisorPid;
    const std::uint64_t startTime = seg->pidStartTime;
    const auto info = ProcessProbe::read(pid);
    const std::int64_t pgid = info ? info->pgid : 0;
    if (pgid > 1 && pgid != ::getpgrp())
        ::kill(static_cast<pid_t>(-pgid), SIGTERM);
    else
        ::kill(static_cast<pid_t>(pid), SIGTERM);

    auto waitFor = [&](auto done, std::chrono::milliseconds limit) {
        const auto until = std::chrono::steady_clock::now() + limit;
        while (!done() && std::chrono::steady_clock::now() < until && !progress.cancelled())
            std::this_thread::sleep_for(20ms);
        return done();
    };
    progress.report({0, 0, "", "SIGTERM sent to process " + std::to_string(pid)});
    if (!waitFor([&] { return !ProcessProbe::alive(pid, startTime); }, grace)) {
        if (progress.cancelled())
            return Error::at(attempt.logPath, "cancelled");
        progress.report({0, 0, "", "SIGKILL after " + std::to_string(grace.count()) + " ms"});
        std::vector<std::int64_t> victims =
            pgid > 1 ? ProcessProbe::groupMembers(pgid) : std::vector<std::int64_t>{pid};
        for (std::int64_t v : victims)
            if (v != supervisor && v != ::getpid())
                ::kill(static_cast<pid_t>(v), SIGKILL);
        waitFor([&] { return !ProcessProbe::alive(pid, startTime); }, 5s);
    }
    // The supervisor appends the exit event as soon as its wait returns.
    waitFor(
        [&] {
            refresh(attempt);
            return attempt.state != RunState::Running;
        },
        5s);
    if (attempt.state == RunState::Running)
        return Error::at(attempt.logPath,
                         "process " + std::to_string(pid) + " is still running after SIGKILL");
    return {};
}

} // namespace ckpt
