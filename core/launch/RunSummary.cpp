#include "launch/RunSummary.h"

#include "launch/RunBranches.h"

#include <QDateTime>
#include <QString>

#include <cstring>

namespace ckpt {

namespace {

std::optional<std::int64_t> unixOf(const std::string& iso)
{
    if (iso.empty())
        return std::nullopt;
    const QDateTime t = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODate);
    return t.isValid() ? std::optional<std::int64_t>(t.toSecsSinceEpoch()) : std::nullopt;
}

} // namespace

std::string RunSummary::started(const LaunchAttempt& a)
{
    return !a.segments.empty() && !a.segments.front().started.empty() ? a.segments.front().started
                                                                      : a.submitted;
}

std::optional<std::int64_t> RunSummary::durationSeconds(const LaunchAttempt& a,
                                                        std::int64_t nowUnix)
{
    if (a.state == RunState::Pending)
        return std::nullopt;
    const auto start = unixOf(started(a));
    if (!start)
        return std::nullopt;
    const auto end = a.ended.empty() ? std::optional<std::int64_t>(nowUnix) : unixOf(a.ended);
    if (!end)
        return std::nullopt;
    return std::max<std::int64_t>(0, *end - *start);
}

std::string RunSummary::process(const LaunchAttempt& a)
{
    if (!a.jobId.empty())
        return "job " + a.jobId;
    if (!a.segments.empty() && a.segments.back().pid)
        return "pid " + std::to_string(a.segments.back().pid);
    return "-";
}

std::string RunSummary::change(const LaunchParent::Change& c)
{
    return c.key + " " + (c.from.empty() ? "-" : c.from) + " -> " + c.to;
}

std::string RunSummary::changes(const std::vector<LaunchParent::Change>& all)
{
    std::string out;
    for (const auto& c : all)
        out += (out.empty() ? "" : ", ") + change(c);
    return out;
}

std::string RunSummary::displayName(const std::string& name, const std::string& runRoot)
{
    std::string out = name;
    for (const char* suffix : {"/ckpts", "/save"})
        if (out.size() > std::strlen(suffix) &&
            out.compare(out.size() - std::strlen(suffix), std::string::npos, suffix) == 0)
            out.resize(out.size() - std::strlen(suffix));
    return out.empty() || out == "ckpts" ? RunBranches::displayName(runRoot) : out;
}

} // namespace ckpt
