#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "LaunchedRunArgument.h"
#include "launch/Lineage.h"
#include "launch/RunSummary.h"

namespace ckpt::cli {

namespace {

nlohmann::ordered_json edgeJson(const LineageEdge& e)
{
    nlohmann::ordered_json changes = nlohmann::ordered_json::array();
    for (const auto& c : e.changes)
        changes.push_back({{"key", c.key},
                           {"from", c.from.empty() ? nlohmann::ordered_json(nullptr)
                                                   : nlohmann::ordered_json(c.from)},
                           {"to", c.to}});
    return {{"parent", e.parentRoot},        {"epoch", e.epoch},
            {"child", e.childRoot},          {"mode", LaunchPlan::modeName(e.mode)},
            {"changes", std::move(changes)}, {"submitted", e.submitted},
            {"state", runStateName(e.state)}};
}

std::string edgeText(const LineageEdge& e)
{
    std::string out =
        e.mode == LaunchPlan::Mode::Restart
            ? e.childRoot + " restarted from epoch " + std::to_string(e.epoch)
            : e.parentRoot + " epoch " + std::to_string(e.epoch) + " -> fork " + e.childRoot;
    const std::string changes = RunSummary::changes(e.changes);
    out += changes.empty() ? " (no parameter changed)" : " (" + changes + ")";
    return out + ", " + e.submitted + ", " + runStateName(e.state) + "\n";
}

} // namespace

int runLineage(const QStringList& arguments)
{
    CommandLine cl(QStringLiteral("lineage"), QStringLiteral("RUN [--json]"),
                   QStringLiteral("Where a run comes from and what came of it, from the records "
                                  "of the runs Ckpt Studio launched: the forks that led to it "
                                  "(oldest first), then its restarts and the runs forked from it "
                                  "and from them, each with the epoch and the parameters "
                                  "changed."));
    if (auto exit = cl.parse(arguments, 1, 1))
        return *exit;
    auto root = launchedRunRoot(cl.positional().first());
    if (!root)
        return cl.fail(root.error().message);
    auto edges = Lineage::edges(LaunchRegistry());
    if (!edges)
        return cl.fail(edges.error().message);
    const Lineage::Family family = Lineage::familyOf(*edges, *root);
    if (cl.json()) {
        nlohmann::ordered_json ancestors = nlohmann::ordered_json::array();
        for (const auto& e : family.ancestors)
            ancestors.push_back(edgeJson(e));
        nlohmann::ordered_json descendants = nlohmann::ordered_json::array();
        for (const auto& e : family.descendants)
            descendants.push_back(edgeJson(e));
        Console::json({{"run", *root},
                       {"ancestors", std::move(ancestors)},
                       {"descendants", std::move(descendants)}});
        return ExitOk;
    }
    std::string out = *root + "\n";
    if (family.ancestors.empty() && family.descendants.empty())
        out += "  no launches from or into this run are recorded\n";
    for (const auto& e : family.ancestors)
        out += "  from: " + edgeText(e);
    for (const auto& e : family.descendants)
        out += "  then: " + edgeText(e);
    Console::out(out);
    return ExitOk;
}

} // namespace ckpt::cli
