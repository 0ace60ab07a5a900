#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "hdf5/H5Probe.h"

#include <QCoreApplication>

#include <array>
#include <cstring>

namespace ckpt::cli {

std::span<const Command> commands()
{
    static const std::array<Command, 14> kCommands{{
        {"scan", "find every run below a folder and report its epochs, links and problems",
         &runScan},
        {"verify", "recompute model checksums (CRC-32) on all cores and compare", &runVerify},
        {"relink", "point last or best at an epoch (rollback), atomically; --undo reverts",
         &runRelink},
        {"history", "the metric history of a run: one row per epoch, a column per metric",
         &runHistory},
        {"prune", "preview or apply a keep policy (linear or exponential)", &runPrune},
        {"watch", "print one line per change (new epoch, relink, new run) until interrupted",
         &runWatch},
        {"inspect", "look inside a model file: layers, tensors, attributes, statistics",
         &runInspect, true},
        {"diff", "compare the weights of two model files or two epochs, layer by layer", &runDiff,
         true},
        {"params", "a run's hyperparameters by section; --diff: typed comparison", &runParams},
        {"runs", "runs launched by Ckpt Studio: state, backend, job id, parent, duration",
         &runRuns},
        {"launch",
         "restart a run from an epoch, or fork a new run from it, with edited "
         "parameters, locally or on Slurm",
         &runLaunch},
        {"lineage", "a run's family tree: the forks it came from, its restarts and forks",
         &runLineage},
        {"stop", "stop a launched run (SIGTERM then SIGKILL, or scancel)", &runStop},
        {"version", "the version of ckpt and of its JSON protocol", &runVersion},
    }};
    return kCommands;
}

namespace {

void printUsage()
{
    QString text = QStringLiteral(
        "Usage: ckpt COMMAND [OPTIONS] [ARGS]\n\n"
        "Inspect, verify and steer training checkpoints of CANDLE, PyTorch Lightning, Keras,\n"
        "MindSpore, Orbax and Caffe2 runs.\n\n"
        "Commands:\n");
    for (const auto& c : commands())
        text +=
            QStringLiteral("  %1  %2\n")
                .arg(QString::fromLatin1(c.name).leftJustified(9), QString::fromUtf8(c.summary));
    text +=
        QStringLiteral("\nEvery command takes --help and --json. Exit status: 0 fine, 1 problems "
                       "found, 2 usage or I/O error.\n");
    Console::out(text);
}

} // namespace
} // namespace ckpt::cli

int main(int argc, char** argv)
{
    using namespace ckpt::cli;
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("ckpt"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CKPT_VERSION));
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    if (args.isEmpty() || args.first() == QLatin1String("--help") ||
        args.first() == QLatin1String("-h") || args.first() == QLatin1String("help")) {
        printUsage();
        return args.isEmpty() ? ExitUsage : ExitOk;
    }
    if (args.first() == QLatin1String("--version")) {
        if (args.contains(QLatin1String("--json")))
            return runVersion({QStringLiteral("--json")});
        Console::out(QStringLiteral("ckpt %1\n").arg(QCoreApplication::applicationVersion()));
        return ExitOk;
    }
    const QString name = args.takeFirst();
    for (const auto& c : commands()) {
        if (name != QLatin1String(c.name))
            continue;
        if (!c.readsModels)
            return c.run(args);
        auto isolated = ckpt::H5Probe::isolate([&] { return c.run(args); });
        if (isolated)
            return *isolated;
        Console::err("ckpt " + name.toStdString() + ": " + isolated.error().message + "\n");
        return ExitUsage;
    }
    Console::err(QStringLiteral("ckpt: unknown command '%1'. Try 'ckpt --help'.\n").arg(name));
    return ExitUsage;
}
