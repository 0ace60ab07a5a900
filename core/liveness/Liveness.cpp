#include "liveness/Liveness.h"

#include "layout/DirReader.h"
#include "liveness/ProcOpenFiles.h"

#include <algorithm>
#include <chrono>
#include <fcntl.h>
#include <sys/stat.h>

namespace ckpt {

namespace {

constexpr std::int64_t kMinWindowMs = 10'000;
constexpr std::int64_t kMaxWindowMs = 30 * 60'000;
constexpr std::int64_t kUnknownWindowMs = 60'000;

std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::optional<std::int64_t> mtimeNs(const std::string& path)
{
    struct stat st = {};
    if (::lstat(path.c_str(), &st) != 0)
        return std::nullopt;
    return static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

// The newest change in work/: the directory itself or any file directly in it.
std::optional<std::int64_t> newestInWork(const std::string& work)
{
    std::optional<std::int64_t> newest = mtimeNs(work);
    if (!newest)
        return std::nullopt;
    std::vector<DirEntry> entries;
    if (DirReader::listAt(AT_FDCWD, work.c_str(), entries) == 0) {
        for (const DirEntry& e : entries) {
            if (auto t = mtimeNs(work + "/" + e.name))
                newest = std::max(*newest, *t);
        }
    }
    return newest;
}

// When an epoch was saved: its ckpt-info.json is the last file CANDLE writes.
std::optional<std::int64_t> savedAt(const std::string& epochDir)
{
    if (auto t = mtimeNs(epochDir + "/ckpt-info.json"))
        return t;
    return mtimeNs(epochDir);
}

Problem interruptedProblem(const std::string& work)
{
    return Problem{ProblemKind::InterruptedSave,
                   work + " is left over from an interrupted save: the epoch being written there "
                          "is incomplete and no process is writing it. Check it and delete work/ "
                          "(CANDLE would overwrite it on the next save).",
                   work, std::nullopt};
}

} // namespace

std::string_view toString(LiveState state)
{
    switch (state) {
    case LiveState::Live:
        return "live";
    case LiveState::Interrupted:
        return "interrupted";
    case LiveState::Idle:
        break;
    }
    return "idle";
}

std::string Liveness::workDirOf(const Run& run)
{
    return run.inProgress.empty() ? std::string() : run.inProgress.front().path;
}

Liveness::Subject Liveness::subjectOf(const Run& run)
{
    Subject s;
    s.root = run.root;
    s.dir = run.directory();
    s.workDir = workDirOf(run);
    for (const RunSource& source : run.sources)
        if (!source.path.empty())
            s.logs.push_back(source.path);
    const std::size_t n = std::min(run.epochs.size(), kRecent);
    for (auto it = run.epochs.end() - static_cast<std::ptrdiff_t>(n); it != run.epochs.end(); ++it)
        s.recentEpochDirs.push_back(savedPathOf(s.dir, *it));
    return s;
}

std::string Liveness::savedPathOf(const std::string& dir, const Epoch& epoch)
{
    const auto under = [&](const std::string& name) {
        return name.front() == '/' ? name : dir + "/" + name;
    };
    if (!epoch.dir.empty())
        return under(epoch.dir);
    const EpochFile* model = epoch.modelFile();
    return model && !model->name.empty() ? under(model->name) : dir;
}

void Liveness::noteEpoch(Subject& subject, const std::string& epochDir)
{
    auto& dirs = subject.recentEpochDirs;
    std::erase(dirs, epochDir);
    dirs.push_back(epochDir);
    if (dirs.size() > kRecent)
        dirs.erase(dirs.begin());
}

Liveness::Evidence Liveness::gather(const Subject& subject, const ProcOpenFiles& open)
{
    Evidence e;
    const std::int64_t now = nowNs();
    const std::string& work = subject.workDir;
    if (auto t = work.empty() ? std::nullopt : newestInWork(work)) {
        struct stat st = {};
        e.hasWork = ::lstat(work.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
        if (e.hasWork)
            e.workAgeMs = std::max<std::int64_t>(0, (now - *t) / 1'000'000);
    }
    std::vector<std::int64_t> times;
    for (const std::string& dir : subject.recentEpochDirs) {
        if (auto t = savedAt(dir))
            times.push_back(*t);
    }
    std::sort(times.begin(), times.end());
    if (!times.empty())
        e.epochAgeMs = std::max<std::int64_t>(0, (now - times.back()) / 1'000'000);
    std::vector<std::int64_t> gaps;
    for (std::size_t i = 1; i < times.size(); ++i) {
        if (times[i] > times[i - 1])
            gaps.push_back((times[i] - times[i - 1]) / 1'000'000);
    }
    if (!gaps.empty()) {
        std::nth_element(gaps.begin(), gaps.begin() + gaps.size() / 2, gaps.end());
        e.cadenceMs = gaps[gaps.size() / 2];
    }
    e.heldOpen = heldOpen(subject, open);
    return e;
}

// A writer holds its save folder or its logs open (CANDLE's logger keeps
// ckpt.log open, Keras' CSVLogger training.log); readers open epochs/ only.
bool Liveness::heldOpen(const Subject& subject, const ProcOpenFiles& open)
{
    return (!subject.workDir.empty() && open.anyUnder(subject.workDir)) ||
           std::any_of(subject.logs.begin(), subject.logs.end(),
                       [&](const std::string& log) { return open.isOpen(log); });
}

std::int64_t Liveness::windowMs(const Evidence& evidence)
{
    if (!evidence.cadenceMs)
        return kUnknownWindowMs;
    return std::clamp<std::int64_t>(3 * *evidence.cadenceMs, kMinWindowMs, kMaxWindowMs);
}

LiveState Liveness::decide(const Evidence& e)
{
    if (e.heldOpen)
        return LiveState::Live;
    const std::int64_t window = windowMs(e);
    if (e.hasWork)
        return e.workAgeMs && *e.workAgeMs < window ? LiveState::Live : LiveState::Interrupted;
    if (e.epochAgeMs && *e.epochAgeMs < window)
        return LiveState::Live;
    return LiveState::Idle;
}

LiveState Liveness::assess(const Subject& subject)
{
    // /proc is read only when it can change the verdict: a scan of many
    // finished runs never walks it.
    Evidence e = gather(subject, ProcOpenFiles{});
    if (decide(e) != LiveState::Live &&
        (e.hasWork || (e.epochAgeMs && *e.epochAgeMs < kMaxWindowMs)))
        e.heldOpen = heldOpen(subject, ProcOpenFiles::snapshot());
    return decide(e);
}

bool Liveness::settle(Run& run, LiveState state)
{
    const std::string work = workDirOf(run);
    const bool want = state == LiveState::Interrupted && !work.empty();
    auto it = std::find_if(run.problems.begin(), run.problems.end(),
                           [](const Problem& p) { return p.kind == ProblemKind::InterruptedSave; });
    const bool has = it != run.problems.end();
    if (want == has)
        return false;
    if (has)
        run.problems.erase(it);
    else {
        // First among the run's problems; push + rotate rather than insert at the
        // front, which GCC 12 at -O3 flags with a false -Wnull-dereference.
        run.problems.push_back(interruptedProblem(work));
        std::rotate(run.problems.begin(), run.problems.end() - 1, run.problems.end());
    }
    return true;
}

LiveState Liveness::settle(Run& run)
{
    const LiveState state = assess(subjectOf(run));
    settle(run, state);
    return state;
}

} // namespace ckpt
