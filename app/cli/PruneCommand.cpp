#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "RunArgument.h"
#include "TextTable.h"
#include "launch/Lineage.h"
#include "ops/Pruner.h"
#include "report/Format.h"

namespace ckpt::cli {

namespace {

std::string reasons(const KeptEpoch& k)
{
    std::string s;
    for (const auto& r : k.reasons)
        s += (s.empty() ? "" : ", ") + r;
    return s;
}

nlohmann::ordered_json planJson(const PrunePlan& plan)
{
    nlohmann::ordered_json del = nlohmann::ordered_json::array();
    for (const auto& c : plan.toDelete)
        del.push_back({{"epoch", c.epoch}, {"dir", c.dir}, {"bytes", c.bytes}});
    nlohmann::ordered_json kept = nlohmann::ordered_json::array();
    for (const auto& k : plan.kept) {
        nlohmann::ordered_json why = nlohmann::ordered_json::array();
        for (const auto& r : k.reasons)
            why.push_back(r);
        kept.push_back({{"epoch", k.epoch}, {"reasons", why}});
    }
    return {{"root", plan.root},
            {"keep_mode", std::string(toString(plan.policy.mode))},
            {"keep_limit", plan.policy.keepLimit},
            {"delete", del},
            {"bytes_freed", plan.bytesFreed},
            {"keep", kept},
            {"leftovers", plan.leftovers},
            {"notes", plan.notes}};
}

std::string planText(const PrunePlan& plan)
{
    std::string out = plan.root + "\n";
    TextTable table({"epoch", "action", "size / reason"}, {true, false, false});
    std::size_t d = 0;
    for (const auto& k : plan.kept) {
        while (d < plan.toDelete.size() && plan.toDelete[d].epoch < k.epoch) {
            table.addRow({std::to_string(plan.toDelete[d].epoch), "delete",
                          Format::bytes(static_cast<double>(plan.toDelete[d].bytes))});
            ++d;
        }
        table.addRow({std::to_string(k.epoch), "keep", reasons(k)});
    }
    for (; d < plan.toDelete.size(); ++d)
        table.addRow({std::to_string(plan.toDelete[d].epoch), "delete",
                      Format::bytes(static_cast<double>(plan.toDelete[d].bytes))});
    out += table.render("  ");
    for (const auto& n : plan.notes)
        out += "note: " + n + "\n";
    out += std::to_string(plan.toDelete.size()) + " epochs to delete, " +
           Format::bytes(static_cast<double>(plan.bytesFreed)) + " freed\n";
    return out;
}

} // namespace

int runPrune(const QStringList& arguments)
{
    CommandLine cl(
        QStringLiteral("prune"),
        QStringLiteral(
            "RUN --keep-limit K [--keep-mode linear|exponential] [--yes [--trash]] [--json]"),
        QStringLiteral(
            "Shows which epochs a keep policy deletes and the bytes freed; deletes them only "
            "with --yes; with --trash they go to the desktop trash of their file system "
            "instead (refused, with nothing moved, where that trash cannot be had by a "
            "rename). The newest epoch and the targets of last/best are always kept.\n"
            "linear: CANDLE's rule, keep the newest K epochs. exponential: keep the newest "
            "epoch and the epochs at or before N-1, N-2, N-4, N-8, ... (up to K)."));
    cl.addOption({QStringLiteral("keep-limit"), QStringLiteral("How many epochs to keep."),
                  QStringLiteral("K")});
    cl.addOption({QStringLiteral("keep-mode"), QStringLiteral("linear (default) or exponential."),
                  QStringLiteral("MODE"), QStringLiteral("linear")});
    cl.addOption({QStringLiteral("yes"), QStringLiteral("Really delete (default: dry run).")});
    cl.addOption({QStringLiteral("trash"),
                  QStringLiteral("Move the epochs to the desktop trash instead of deleting "
                                 "them (they use disk until the trash is emptied).")});
    if (auto exit = cl.parse(arguments, 1, 1))
        return *exit;
    if (!cl.isSet("keep-limit"))
        return cl.usageError(QStringLiteral("--keep-limit is required"));
    const auto limit = cl.intValue(QStringLiteral("keep-limit"), 0);
    if (!limit)
        return ExitUsage;
    const auto mode = keepModeFromString(cl.value("keep-mode").toStdString());
    if (!mode)
        return cl.usageError(QStringLiteral("--keep-mode is linear or exponential"));

    auto run = loadRunArgument(cl.positional().first());
    if (!run) {
        return cl.fail(run.error().message);
    }
    PrunePlan plan = Pruner::plan(*run, KeepPolicy{*mode, *limit}, Lineage::forkPins(run->root));
    plan.toTrash = cl.isSet("trash");
    nlohmann::ordered_json json = planJson(plan);
    if (!cl.json())
        Console::out(planText(plan));
    if (plan.toTrash && !cl.isSet("yes"))
        Console::err("note: --trash takes effect with --yes\n");
    if (!cl.isSet("yes")) {
        json["dry_run"] = true;
        if (cl.json())
            Console::json(json);
        else if (!plan.toDelete.empty())
            Console::out("dry run: nothing deleted; add --yes to delete\n");
        return ExitOk;
    }
    TerminalProgress progress("pruning");
    auto outcome = Pruner::execute(*run, plan, progress.progress());
    if (!outcome) {
        return cl.fail(outcome.error().message);
    }
    json["dry_run"] = false;
    json["deleted"] = outcome->deleted;
    json["deleted_bytes"] = outcome->bytesFreed;
    if (plan.toTrash) {
        nlohmann::ordered_json trashed = nlohmann::ordered_json::array();
        for (const auto& t : outcome->trashed)
            trashed.push_back({{"epoch", t.epoch},
                               {"dir", t.item.original},
                               {"trashed", t.item.trashed},
                               {"info", t.item.info}});
        json["trashed"] = trashed;
    }
    nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
    for (const auto& s : outcome->skipped)
        skipped.push_back({{"epoch", s.epoch}, {"reason", s.reason}});
    json["skipped"] = skipped;
    json["warnings"] = outcome->warnings;
    if (cl.json()) {
        Console::json(json);
    } else {
        if (plan.toTrash) {
            Console::out("moved " + std::to_string(outcome->deleted.size()) +
                         " epochs to the trash (" +
                         Format::bytes(static_cast<double>(outcome->bytesFreed)) +
                         ", still on disk until the trash is emptied; logged in " +
                         outcome->auditLog + ")\n");
            for (const auto& t : outcome->trashed)
                Console::out("  " + t.item.original + " -> " + t.item.trashed + "\n");
        } else {
            Console::out("deleted " + std::to_string(outcome->deleted.size()) + " epochs, freed " +
                         Format::bytes(static_cast<double>(outcome->bytesFreed)) + " (logged in " +
                         outcome->auditLog + ")\n");
        }
        for (const auto& s : outcome->skipped)
            Console::out("kept epoch " + std::to_string(s.epoch) + ": " + s.reason + "\n");
        for (const auto& w : outcome->warnings)
            Console::err("warning: " + w + "\n");
    }
    return outcome->skipped.empty() ? ExitOk : ExitProblems;
}

} // namespace ckpt::cli
