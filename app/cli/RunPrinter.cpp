#include "RunPrinter.h"

#include "Console.h"
#include "TextTable.h"
#include "checksum/Verifier.h"
#include "layout/Layout.h"
#include "report/Format.h"

#include <cmath>
#include <cstdio>

namespace ckpt::cli {

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
    if (const Layout* layout = layoutOf(run))
        for (std::string_view name : layout->linkNames())
            out.append(", ").append(name).append(" ").append(linkText(run.link(name)));
    out += ", " + Format::bytes(static_cast<double>(run.totalModelBytes()));
    if (!liveness.empty())
        out.append(", ").append(liveness);
    out += '\n';

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
                elapsed = Format::duration(*e.elapsed);
            const auto best = e.metric(kBestSoFar);
            const EpochFile* checked = e.checksummedFile();
            const auto bytes = e.modelBytes();
            table.addRow({std::to_string(e.number), e.savedAt.empty() ? "-" : e.savedAt,
                          best ? Format::number(*best) : "-", elapsed,
                          bytes ? Format::bytes(static_cast<double>(*bytes)) : "-",
                          checked                               ? checked->checksum
                          : Verifier::recordsNoChecksum(run, e) ? "none"
                                                                : "-",
                          flags(run, e)});
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
