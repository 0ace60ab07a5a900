#include "CommandLine.h"
#include "Commands.h"
#include "ScanMain.h"

namespace ckpt::cli {

// The `ckpt` front end runs plain scans itself (FrontMain.cpp); this parser
// answers the rest (--help, usage errors) and runs the same scanMain().
int runScan(const QStringList& arguments)
{
    CommandLine cl(QStringLiteral("scan"), QStringLiteral("[--json] [--summary] DIR..."),
                   QStringLiteral("Finds every checkpoint run below each DIR (any folder above "
                                  "runs) and lists its epochs, links and problems.\nExit status "
                                  "1 when a run has problems."));
    cl.addOption({QStringLiteral("summary"), QStringLiteral("One line per run, no epoch table.")});
    cl.addOption({QStringLiteral("stream"),
                  QStringLiteral("With --json: print each run as soon as it is loaded (runs in "
                                 "no particular order), for a client showing the first runs "
                                 "early.")});
    cl.addOption({QStringLiteral("exit-on-eof"),
                  QStringLiteral("Stop when stdin closes (a client over ssh went away).")});
    if (auto exit = cl.parse(arguments, 1, -1))
        return *exit;
    ScanRequest request;
    request.json = cl.json();
    request.summary = cl.isSet(QStringLiteral("summary"));
    request.stream = cl.isSet(QStringLiteral("stream"));
    request.exitOnEof = cl.isSet(QStringLiteral("exit-on-eof"));
    for (const QString& dir : cl.positional())
        request.dirs.push_back(dir.toStdString());
    scanMain(request);
}

} // namespace ckpt::cli
