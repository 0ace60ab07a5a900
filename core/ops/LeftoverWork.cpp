#include "ops/LeftoverWork.h"

#include "io/AtomicFile.h"
#include "layout/Layout.h"
#include "ops/AuditLog.h"
#include "ops/RunLock.h"

#include <cerrno>
#include <cstdio>
#include <ctime>
#include <sys/stat.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

std::string utcStamp()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    ::gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
    return buf;
}

// The newest change time under `dir` (the directory and its direct entries).
fs::file_time_type newestChange(const fs::path& dir)
{
    std::error_code ec;
    fs::file_time_type newest = fs::last_write_time(dir, ec);
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const auto t = fs::last_write_time(entry.path(), ec);
        if (!ec && t > newest)
            newest = t;
    }
    return newest;
}

} // namespace

Result<fs::path> LeftoverWork::moveAside(const fs::path& runRoot, const Options& options)
{
    const fs::path root = runRoot.lexically_normal();
    const fs::path work = root / "work";
    auto lock = RunLock::acquire(root);
    if (!lock)
        return lock.error();
    struct stat st
    {};
    if (::lstat(work.c_str(), &st) != 0)
        return Error::at(work.string(), errno == ENOENT ? "no leftover work/ here (already moved?)"
                                                        : osError(work, errno));
    if (!S_ISDIR(st.st_mode))
        return Error::at(work.string(), "not a directory: left as it is");
    if (options.quietFor.count() > 0 &&
        fs::file_time_type::clock::now() - newestChange(work) < options.quietFor)
        return Error::at(work.string(),
                         "changed less than " + std::to_string(options.quietFor.count()) +
                             " s ago: a save may be in progress; try again when the trainer "
                             "has stopped");
    const Layout* layout = layoutAt(root);
    if (!layout)
        return Error::at(root.string(), "no checkpoint run here (nothing was moved)");
    const AuditLog audit(*layout, root);
    if (Status s = audit.checkWritable(); !s)
        return Error{s.error().message + " (nothing was moved)", s.error().path};
    fs::path aside = root / ("work.interrupted-" + utcStamp());
    for (int n = 2; fs::exists(aside); ++n)
        aside = root / ("work.interrupted-" + utcStamp() + "-" + std::to_string(n));
    if (std::rename(work.c_str(), aside.c_str()) != 0)
        return Error::at(work.string(), "cannot move it aside: " + osError(aside, errno));
    const std::string actor = options.actor.empty() ? AuditLog::defaultActor() : options.actor;
    (void)audit.write("moving aside: " + work.string() + " -> " + aside.filename().string() +
                      " (leftover of an interrupted save) by " + actor);
    return aside;
}

} // namespace ckpt
