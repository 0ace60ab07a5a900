#include "RunPrinter.h"

#include "Console.h"
#include "TextTable.h"
#include "report/Format.h"

#include <cmath>
#include <cstdio>

namespace ckpt::cli {

namespace {

std::string linkText(const std::optional<RunLink>& link)
{
    if (!link)
        return "-";
    if (!link->epoch)
        return "broken";
    return std::to_string(*link->epoch) + (link->relocated ? " (relocated)" : "");
}

std::string flags(const Run& run, const Epoch& e)
{
    std::string f;
    auto add = [&f](const std::string& s) { f += f.empty() ? s : " " + s; };
    if (run.last && run.last->epoch == e.number)
        add("last");
    if (run.best && run.best->epoch == e.number)
        add("best");
    if (e.info && e.info->firstSave)
        add("restart");
    for (const auto& p : e.problems)
        add(std::string(1, '!').append(toString(p.kind)));
    return f;
}

} // namespace

std::string RunPrinter::describe(const Run& run, bool withEpochs, std::string_view liveness)
{
    std::string out = run.root + "\n  " + run.layout + ", " + std::to_string(run.epochs.size()) +
                      (run.epochs.size() == 1 ? " epoch" : " epochs");
    if (!run.epochs.empty())
        out += " (" + std::to_string(run.epochs.front().number) + "-" +
               std::to_string(run.epochs.back().number) + ")";
    out += ", last " + linkText(run.last) + ", best " + linkText(run.best) + ", " +
           Format::bytes(static_cast<double>(run.totalModelBytes()));
    if (!liveness.empty())
        out.append(", ").append(liveness);
    out += '\n';

    if (withEpochs && !run.epochs.empty()) {
        std::string metric = "best_so_far";
        for (const auto& e : run.epochs)
            if (e.info && e.info->saveBestMetric) {
                metric = "best " + *e.info->saveBestMetric;
                break;
            }
        TextTable table({"epoch", "timestamp", metric, "elapsed", "size", "checksum", ""},
                        {true, false, true, true, true, false, false});
        for (const auto& e : run.epochs) {
            const CkptInfo* i = e.info ? &*e.info : nullptr;
            std::string elapsed = "-";
            if (i && i->firstSave)
                elapsed = "first";
            else if (i && i->timeElapsed)
                elapsed = Format::duration(*i->timeElapsed);
            table.addRow({std::to_string(e.number), i && i->timestamp ? *i->timestamp : "-",
                          i && i->bestMetricLast ? Format::number(*i->bestMetricLast) : "-",
                          elapsed,
                          e.modelBytes ? Format::bytes(static_cast<double>(*e.modelBytes)) : "-",
                          i && i->checksum ? *i->checksum : "-", flags(run, e)});
        }
        out += table.render("  ");
    }
    const Problems problems = run.allProblems();
    if (!problems.empty()) {
        out += "  problems:\n";
        for (const auto& p : problems)
            out += std::string("    ") + (isWarningOnly(p.kind) ? "note " : "! ") +
                   std::string(toString(p.kind)) + ": " + p.message + "\n";
    }
    return out + "\n";
}

} // namespace ckpt::cli
