// RemoteCkpt's changing calls: relink, undo, repair and prune on the far
// side. Each is atomic there (or all-or-nothing per epoch); after a dropped
// connection the run is read back over a new one to tell what happened.
#include "remote/RemoteCkpt.h"

#include <QFileInfo>

#include <algorithm>

namespace ckpt {

using Json = nlohmann::ordered_json;

namespace {

std::optional<int> optionalEpoch(const Json& j)
{
    const auto it = j.is_object() ? j.find("epoch") : j.end();
    return it != j.end() && it->is_number_integer() ? std::optional(it->get<int>()) : std::nullopt;
}

bool isRepairableLinkProblem(const Problem& p, const std::string& link)
{
    if (p.kind != ProblemKind::RelocatedLink && p.kind != ProblemKind::CopiedLink)
        return false;
    const std::string name = QFileInfo(QString::fromStdString(p.path)).fileName().toStdString();
    return link == "all" ? (name == "last" || name == "best") : name == link;
}

} // namespace

RemoteCkpt::RelinkResult RemoteCkpt::relinkAnswer(const Json& json)
{
    RelinkResult r;
    r.applied = true;
    r.json = json;
    const auto add = [&r](const Json& one) {
        if (!one.is_object())
            return;
        r.moved.push_back(
            {one.value("link", std::string()), optionalEpoch(one), one.value("changed", false)});
    };
    if (const auto list = json.find("repairs"); list != json.end() && list->is_array()) {
        for (const Json& one : *list)
            add(one);
    } else {
        add(json);
        r.epoch = optionalEpoch(json);
    }
    return r;
}

Result<Run> RemoteCkpt::readBack(const std::string& run) const
{
    auto scanned = scan(run);
    if (!scanned)
        return scanned.error();
    if (scanned->runs.size() != 1)
        return Error{"no single run at " + run, m_target.url()};
    return std::move(scanned->runs.front());
}

Result<RemoteCkpt::RelinkResult>
RemoteCkpt::linkChange(const QStringList& arguments, const std::string& run,
                       const std::string& what,
                       const std::function<void(const Run&, RelinkResult&)>& judge) const
{
    const Outcome o = this->run(arguments);
    if (o.failure == RemoteFailure::None)
        return relinkAnswer(o.json);
    if (o.failure != RemoteFailure::Dropped)
        return error(o);
    // Each link change is atomic on the far side (rename over the link): done
    // or not. Read it back.
    auto now = readBack(run);
    if (!now)
        return Error{o.message + " Whether " + what +
                         " could not be read back: " + now.error().message + ". It is atomic on " +
                         m_target.display() + " (done or not): open the folder again to see.",
                     m_target.url()};
    RelinkResult r;
    r.confirmedByRescan = true;
    judge(*now, r);
    return r;
}

Result<RemoteCkpt::RelinkResult> RemoteCkpt::relink(const std::string& run, const std::string& link,
                                                    int epoch) const
{
    return linkChange({QStringLiteral("relink"), QString::fromStdString(run),
                       QString::fromStdString("--" + link), QString::number(epoch)},
                      run, "the relink of " + link + " was applied",
                      [&](const Run& now, RelinkResult& r) {
                          r.epoch = now.linkedEpoch(link);
                          r.applied = r.epoch == epoch;
                      });
}

Result<RemoteCkpt::RelinkResult> RemoteCkpt::undoRelink(const std::string& run,
                                                        const std::string& link, int movedTo) const
{
    return linkChange(
        {QStringLiteral("relink"), QString::fromStdString(run), QStringLiteral("--undo")}, run,
        "the undo of " + link + " was applied", [&](const Run& now, RelinkResult& r) {
            r.epoch = now.linkedEpoch(link);
            r.applied = r.epoch != movedTo;
        });
}

Result<RemoteCkpt::RelinkResult> RemoteCkpt::repair(const std::string& run,
                                                    const std::string& link) const
{
    return linkChange({QStringLiteral("relink"), QString::fromStdString(run),
                       QStringLiteral("--repair"), QString::fromStdString(link)},
                      run, link + " was repaired", [&](const Run& now, RelinkResult& r) {
                          r.epoch = link == "all" ? std::nullopt : now.linkedEpoch(link);
                          r.applied = std::none_of(
                              now.problems.begin(), now.problems.end(),
                              [&](const Problem& p) { return isRepairableLinkProblem(p, link); });
                      });
}

Result<RemotePruned> RemoteCkpt::prune(const std::string& run, const KeepPolicy& policy,
                                       const std::vector<int>& planned) const
{
    const Outcome o = this->run(
        {QStringLiteral("prune"), QString::fromStdString(run), QStringLiteral("--keep-limit"),
         QString::number(policy.keepLimit), QStringLiteral("--keep-mode"),
         QString::fromLatin1(toString(policy.mode).data(),
                             static_cast<qsizetype>(toString(policy.mode).size())),
         QStringLiteral("--yes")});
    RemotePruned out;
    if (o.failure == RemoteFailure::None) {
        if (!o.json.is_object() || !o.json.contains("deleted"))
            return Error{"ckpt on " + m_target.display() +
                             " answered the prune without \"deleted\". Update it with "
                             "scripts/install-remote.sh " +
                             m_target.display() + " [PREFIX].",
                         m_target.url()};
        for (const Json& e : o.json["deleted"])
            if (e.is_number_integer())
                out.deleted.push_back(e.get<int>());
        out.bytesFreed = o.json.value("deleted_bytes", std::uint64_t{0});
        if (const auto s = o.json.find("skipped"); s != o.json.end() && s->is_array())
            for (const Json& one : *s)
                out.skipped.push_back({one.value("epoch", 0), one.value("reason", std::string())});
        if (const auto w = o.json.find("warnings"); w != o.json.end() && w->is_array())
            for (const Json& one : *w)
                if (one.is_string())
                    out.warnings.push_back(one.get<std::string>());
        out.json = o.json;
        return out;
    }
    if (o.failure != RemoteFailure::Dropped)
        return error(o);
    // Each epoch goes as a whole on the far side (renamed aside, then removed):
    // what is no longer there was deleted.
    auto now = readBack(run);
    if (!now)
        return Error{o.message + " Which epochs the prune deleted could not be read back: " +
                         now.error().message + ". Open the folder again to see.",
                     m_target.url()};
    out.confirmedByRescan = true;
    for (const int e : planned)
        if (!now->findEpoch(e))
            out.deleted.push_back(e);
    return out;
}

} // namespace ckpt
