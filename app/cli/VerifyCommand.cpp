#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "TextTable.h"
#include "checksum/Verifier.h"
#include "report/Format.h"
#include "report/VerifyJson.h"
#include "scan/Scanner.h"

#include <QDir>

#include <algorithm>
#include <cstdio>

namespace ckpt::cli {

namespace {

std::string summary(const VerifyTotals& t)
{
    std::string s;
    for (std::size_t i = 0; i < kVerifyStatusCount; ++i) {
        const int n = t.counts[i];
        if (n == 0)
            continue;
        s += (s.empty() ? "" : ", ") + std::to_string(n) + " " +
             std::string(toString(static_cast<VerifyStatus>(i)));
    }
    char rate[64];
    std::snprintf(rate, sizeof rate, " in %.2f s", t.seconds);
    s += "; " + Format::bytes(static_cast<double>(t.bytes)) + rate;
    if (t.seconds > 0.001)
        s += " (" + Format::bytes(static_cast<double>(t.bytes) / t.seconds) + "/s)";
    return s;
}

std::string describe(const VerifyReport& report)
{
    std::string out;
    for (const auto& run : report.runs) {
        out += run.root + "\n";
        TextTable table({"epoch", "status", "expected", "actual", ""},
                        {true, false, true, true, false});
        for (const auto& e : run.epochs)
            table.addRow({std::to_string(e.epoch), std::string(toString(e.status)),
                          e.expected.empty() ? "-" : e.expected, e.actual.empty() ? "-" : e.actual,
                          e.status == VerifyStatus::Ok ? "" : e.message});
        out += table.render("  ") + "\n";
    }
    return out + summary(report.totals) + "\n";
}

} // namespace

int runVerify(const QStringList& arguments)
{
    CommandLine cl(
        QStringLiteral("verify"),
        QStringLiteral("DIR... [--epoch N[,M...]] [--json] [--progress-json]"),
        QStringLiteral("Recomputes the CRC-32 of every model file below each DIR (CANDLE's "
                       "zlib checksum) on all cores and compares it with ckpt-info.json.\nExit "
                       "status 1 when a model is corrupt (mismatch), missing or unreadable."));
    cl.addOption({QStringLiteral("epoch"),
                  QStringLiteral("Only these epochs of each run (N, N,M,..., or repeated)."),
                  QStringLiteral("N")});
    cl.addOption({QStringLiteral("progress-json"),
                  QStringLiteral("One JSON line per progress step on stderr (for programs "
                                 "driving ckpt, e.g. over ssh).")});
    cl.addOption({QStringLiteral("exit-on-eof"),
                  QStringLiteral("Stop when stdin closes (a client over ssh went away).")});
    if (auto exit = cl.parse(arguments, 1, -1))
        return *exit;
    if (cl.isSet(QStringLiteral("exit-on-eof")))
        Console::exitWhenStdinCloses();
    std::vector<int> only;
    if (cl.isSet("epoch")) {
        auto list = cl.intList(QStringLiteral("epoch"), 0);
        if (!list)
            return ExitUsage;
        only = std::move(*list);
    }

    std::vector<Run> runs;
    for (const QString& dir : cl.positional()) {
        const std::string path = QDir(dir).absolutePath().toStdString();
        auto outcome = Scanner::scan(path);
        if (!outcome) {
            return cl.fail(outcome.error().message);
        }
        if (outcome->runs.empty())
            Console::err("no checkpoint runs found below " + path + "\n");
        for (auto& run : outcome->runs) {
            if (!only.empty()) {
                run.epochs.eraseIf([&](const Epoch& e) {
                    return !std::binary_search(only.begin(), only.end(), e.number);
                });
                if (run.epochs.empty())
                    continue;
            }
            runs.push_back(std::move(run));
        }
    }
    if (!only.empty() && runs.empty()) {
        std::string list;
        for (int n : only) {
            if (!list.empty())
                list += ',';
            list += std::to_string(n);
        }
        return cl.fail(std::string(only.size() == 1 ? "no run has epoch " : "no run has epochs ") +
                       list);
    }
    TerminalProgress progress("verifying");
    progress.setJsonLines(cl.isSet(QStringLiteral("progress-json")));
    auto report = Verifier::verifyRuns(runs, Verifier::Options{}, progress.progress());
    if (!report) {
        return cl.fail(report.error().message);
    }
    if (cl.json()) {
        auto j = VerifyJson::toJson(*report);
        for (std::size_t i = 0; i < runs.size() && i < j["runs"].size(); ++i)
            j["runs"][i]["layout"] = runs[i].layout;
        Console::json(j);
    } else
        Console::out(describe(*report));
    return report->totals.clean() ? ExitOk : ExitProblems;
}

} // namespace ckpt::cli
