#include "candle/CandleLinks.h"

#include "candle/CkptInfoReader.h"
#include "io/AtomicFile.h"
#include "layout/DirReader.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

namespace ckpt {

namespace fs = std::filesystem;

namespace {

// "epochs/NNN" as the last two components of `p` -> NNN's text.
std::optional<std::string> trailingEpoch(const fs::path& p)
{
    const std::string name = p.filename().string();
    if (!DirReader::isDigits(name) || p.parent_path().filename() != "epochs")
        return std::nullopt;
    return name;
}

std::optional<int> toNumber(const std::string& digits)
{
    if (digits.size() > 9)
        return std::nullopt;
    return std::stoi(digits);
}

bool isInside(const fs::path& p, const fs::path& root)
{
    const fs::path rel = p.lexically_relative(root);
    return !rel.empty() && *rel.begin() != "..";
}

bool sameFile(const struct stat& a, const std::string& b)
{
    struct stat sb = {};
    return ::stat(b.c_str(), &sb) == 0 && a.st_dev == sb.st_dev && a.st_ino == sb.st_ino;
}

std::string readLinkText(const std::string& path, int& err)
{
    std::string buf(256, '\0');
    for (;;) {
        const ssize_t n = ::readlink(path.c_str(), buf.data(), buf.size());
        if (n < 0) {
            err = errno;
            return {};
        }
        if (static_cast<std::size_t>(n) < buf.size()) {
            buf.resize(static_cast<std::size_t>(n));
            err = 0;
            return buf;
        }
        buf.resize(buf.size() * 2);
    }
}

class LinkResolver
{
public:
    LinkResolver(const std::string& root, const std::string& name)
        : m_root(root), m_name(name), m_path(root + "/" + name)
    {}

    CandleLinks::Outcome resolve()
    {
        struct stat lst = {};
        if (::lstat(m_path.c_str(), &lst) != 0) {
            if (errno != ENOENT)
                add(ProblemKind::Unreadable, "cannot read " + osError(m_path, errno) +
                                                 ": check the permissions of the run folder.");
            return std::move(m_out);
        }
        RunLink link;
        link.name = m_name;
        link.path = m_path;
        if (!S_ISLNK(lst.st_mode)) {
            link.symlink = false;
            notALink(link, S_ISDIR(lst.st_mode));
        } else {
            int err = 0;
            link.target = readLinkText(m_path, err);
            if (err != 0)
                add(ProblemKind::Unreadable,
                    "cannot read link " + osError(m_path, err) + ": check its permissions.");
            else
                follow(link);
        }
        m_out.link = std::move(link);
        return std::move(m_out);
    }

private:
    std::string m_root;
    std::string m_name;
    std::string m_path;
    CandleLinks::Outcome m_out;

    void add(ProblemKind kind, std::string message, std::optional<int> epoch = std::nullopt)
    {
        m_out.problems.push_back(Problem{kind, std::move(message), m_path, epoch});
    }

    std::string epochsDir(const std::string& digits) const { return m_root + "/epochs/" + digits; }

    bool isLocalEpochDir(const std::string& digits) const
    {
        struct stat st = {};
        return ::stat(epochsDir(digits).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    }

    // A copy that did not keep symlinks (cp -r, some archivers) leaves a full
    // epoch directory where the link stood; say which epoch it is a copy of.
    void notALink(RunLink& link, bool isDir)
    {
        std::string what = isDir ? "a plain directory" : "a plain file";
        if (isDir) {
            auto info = CkptInfoReader::readFile(m_path + "/ckpt-info.json");
            if (info && info->epoch) {
                link.epoch = info->epoch;
                what += " holding a copy of epoch " + std::to_string(*info->epoch);
            }
        }
        add(ProblemKind::LinkNotEpoch,
            m_path + " is " + what +
                ", not a symlink (the run was copied without preserving links?): replace it by "
                "a symlink to the epoch directory under " +
                m_root + "/epochs.",
            link.epoch);
    }

    void follow(RunLink& link)
    {
        fs::path target(link.target);
        fs::path resolved = (target.is_absolute() ? target : fs::path(m_root) / target);
        resolved = resolved.lexically_normal();
        if (!resolved.has_filename() && resolved.has_parent_path())
            resolved = resolved.parent_path(); // "…/epochs/012/"
        const fs::path rel = resolved.lexically_relative(m_root);
        std::optional<std::string> localDigits;
        if (auto it = rel.begin(); std::distance(rel.begin(), rel.end()) == 2 && *it == "epochs" &&
                                   DirReader::isDigits((++it)->string()))
            localDigits = it->string();
        const std::optional<std::string> tailDigits = trailingEpoch(resolved);

        // Existence is the kernel's answer for the link itself (what a restart
        // would open); the lexical `resolved` only classifies where it points.
        struct stat st = {};
        if (::stat(m_path.c_str(), &st) == 0) {
            if (localDigits && S_ISDIR(st.st_mode)) {
                link.epoch = toNumber(*localDigits);
                return;
            }
            // The same directory reached through another path (the run root
            // seen through a symlinked ancestor, a bind mount).
            if (tailDigits && S_ISDIR(st.st_mode) && sameFile(st, epochsDir(*tailDigits))) {
                link.epoch = toNumber(*tailDigits);
                return;
            }
            if (isInside(resolved, m_root) || localDigits) {
                add(ProblemKind::LinkNotEpoch,
                    m_path + " points at " + resolved.string() +
                        ", which is not an epoch directory: re-point it at one of " + m_root +
                        "/epochs/NNN.");
                return;
            }
            // A copy (cp -a) keeps the original's absolute targets. When this run
            // has the same epochs/NNN, that is the epoch the link means here.
            if (tailDigits && isLocalEpochDir(*tailDigits)) {
                link.epoch = toNumber(*tailDigits);
                link.relocated = true;
                add(ProblemKind::CopiedLink,
                    m_path + " points into another copy of this run, at " + resolved.string() +
                        " (cp -a keeps absolute links): shown as this run's " +
                        epochsDir(*tailDigits) +
                        "; repair it there before restarting training from this copy, or a "
                        "restart loads the other copy's model.",
                    link.epoch);
                return;
            }
            add(ProblemKind::LinkOutsideRun,
                m_path + " points outside this run, at " + resolved.string() +
                    " (another run, or the original of a copied run): a restart would load "
                    "that model; re-point it at an epoch of this run.",
                tailDigits ? toNumber(*tailDigits) : std::nullopt);
            return;
        }
        const int err = errno;
        if (err == ELOOP) {
            add(ProblemKind::LinkLoop,
                m_path + " -> " + link.target + " is a symlink loop: re-point it at an epoch.");
            return;
        }
        if (err != ENOENT && err != ENOTDIR) {
            add(ProblemKind::Unreadable,
                "cannot follow " + m_path + ": " + osError(resolved, err) + ": check permissions.");
            return;
        }
        if (localDigits) {
            add(ProblemKind::LinkToMissingEpoch,
                m_path + " points at " + resolved.string() +
                    ", which does not exist (pruned or deleted): re-point it at an existing "
                    "epoch.",
                toNumber(*localDigits));
            return;
        }
        if (tailDigits) {
            const std::string local = epochsDir(*tailDigits);
            if (isLocalEpochDir(*tailDigits)) {
                link.epoch = toNumber(*tailDigits);
                link.relocated = true;
                add(ProblemKind::RelocatedLink,
                    m_path + " points at " + link.target +
                        ", which does not exist here (the run was copied or moved); resolved to " +
                        local + ". Re-link it there before restarting training from this copy.",
                    link.epoch);
            } else {
                add(ProblemKind::LinkToMissingEpoch,
                    m_path + " points at " + link.target +
                        ", which does not exist, and this run has no " + local +
                        " either: re-point it at an existing epoch.",
                    toNumber(*tailDigits));
            }
            return;
        }
        add(ProblemKind::DanglingLink,
            m_path + " points at " + link.target +
                ", which does not exist and names no epochs/NNN: re-point it at an epoch of "
                "this run or delete it.");
    }
};

} // namespace

CandleLinks::Outcome CandleLinks::read(const std::string& root, const std::string& name)
{
    return LinkResolver(root, name).resolve();
}

bool CandleLinks::isLinkProblem(ProblemKind kind)
{
    switch (kind) {
    case ProblemKind::DanglingLink:
    case ProblemKind::RelocatedLink:
    case ProblemKind::LinkOutsideRun:
    case ProblemKind::CopiedLink:
    case ProblemKind::LinkToMissingEpoch:
    case ProblemKind::LinkNotEpoch:
    case ProblemKind::LinkLoop:
    case ProblemKind::BestNotAtBest:
        return true;
    default:
        return false;
    }
}

void CandleLinks::readInto(Run& run)
{
    // Link problems are recomputed from scratch; keep everything else. Unreadable
    // problems about the link paths themselves are dropped too.
    const std::string lastPath = run.root + "/last";
    const std::string bestPath = run.root + "/best";
    std::erase_if(run.problems, [&](const Problem& p) {
        return isLinkProblem(p.kind) || p.path == lastPath || p.path == bestPath;
    });
    auto last = read(run.root, "last");
    auto best = read(run.root, "best");
    run.setLink("last", std::move(last.link));
    run.setLink("best", std::move(best.link));
    run.problems.insert(run.problems.end(), last.problems.begin(), last.problems.end());
    run.problems.insert(run.problems.end(), best.problems.begin(), best.problems.end());
}

} // namespace ckpt
