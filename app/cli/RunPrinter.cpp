#include "RunPrinter.h"

#include "Console.h"
#include "TextTable.h"
#include "layout/Layout.h"

#include <cmath>
#include <cstdio>

namespace ckpt::cli {

std::string RunPrinter::formatNumber(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", value);
    return buf;
}

namespace {

std::string linkText(const RunLink* link)
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
    for (const auto& l : run.links)
        if (l.epoch == e.number)
            add(l.name);
    if (e.firstSave)
        add("restart");
    for (const auto& p : e.problems)
        add("!" + std::string(toString(p.kind)));
    return f;
}

} // namespace

std::string RunPrinter::describe(const Run& run, bool withEpochs)
{
    std::string out = run.root + "\n  " + run.layout + ", " + std::to_string(run.epochs.size()) +
                      (run.epochs.size() == 1 ? " epoch" : " epochs");
    if (!run.epochs.empty())
        out += " (" + std::to_string(run.epochs.front().number) + "-" +
               std::to_string(run.epochs.back().number) + ")";
    if (const Layout* layout = layoutOf(run))
        for (std::string_view name : layout->linkNames())
            out += ", " + std::string(name) + " " + linkText(run.link(name));
    out += ", " + humanBytes(static_cast<double>(run.totalModelBytes())) + "\n";

    if (withEpochs && !run.epochs.empty()) {
        std::string metric(kBestSoFar);
        for (const auto& e : run.epochs)
            if (!e.monitored.empty()) {
                metric = "best " + e.monitored;
                break;
            }
        TextTable table({"epoch", "timestamp", metric, "elapsed", "size", "checksum", ""},
                        {true, false, true, true, true, false, false});
        for (const auto& e : run.epochs) {
            std::string elapsed = "-";
            if (e.firstSave)
                elapsed = "first";
            else if (e.elapsed)
                elapsed = formatNumber(*e.elapsed) + " s";
            const auto best = e.metric(kBestSoFar);
            const EpochFile* checked = e.checksummedFile();
            const auto bytes = e.modelBytes();
            table.addRow({std::to_string(e.number), e.savedAt.empty() ? "-" : e.savedAt,
                          best ? formatNumber(*best) : "-", elapsed,
                          bytes ? humanBytes(static_cast<double>(*bytes)) : "-",
                          checked ? checked->checksum : "-", flags(run, e)});
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
