#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "ModelArgument.h"
#include "TextTable.h"
#include "hdf5/TensorDiff.h"
#include "modelfile/WeightsDiff.h"
#include "report/ModelJson.h"

#include <QTemporaryDir>

#include <cmath>
#include <cstdio>

namespace ckpt::cli {

namespace {

std::string num(double v)
{
    if (std::isnan(v))
        return "-";
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string diffText(const ModelDiff& d, int top)
{
    std::string out = "A: " + d.fileA + "\nB: " + d.fileB + "\n\n";
    std::size_t counts[8] = {};
    for (const TensorDiffEntry& t : d.tensors)
        ++counts[static_cast<int>(t.status)];
    TextTable layers({"layer", "tensors", "rel change", "cosine", "max |a-b|", "note"},
                     {false, true, true, true, true, false});
    int shown = 0;
    for (const LayerDiff& l : d.layers) {
        if (top > 0 && shown++ >= top)
            break;
        std::string note;
        const auto add = [&note](std::size_t n, const char* what) {
            if (n > 0)
                note += (note.empty() ? "" : ", ") + std::to_string(n) + " " + what;
        };
        add(l.changed, "changed");
        add(l.same, "same");
        add(l.onlyA, "only in A");
        add(l.onlyB, "only in B");
        add(l.mismatched, "mismatched");
        add(l.unreadable, "unreadable");
        if (l.nonFiniteAppeared)
            note += ", NaN/Inf appeared";
        layers.addRow({l.name, std::to_string(l.tensors), num(l.relChange), num(l.cosine),
                       num(l.maxAbsDiff), note});
    }
    out += "layers, most changed first:\n" + layers.render("  ");

    TextTable tensors({"tensor", "status", "rel change", "cosine", "max |a-b|", "note"},
                      {false, false, true, true, true, false});
    for (const TensorDiffEntry& t : d.tensors) {
        if (t.status == TensorDiffEntry::Status::Same)
            continue;
        std::string note;
        if (t.status == TensorDiffEntry::Status::ShapeMismatch ||
            t.status == TensorDiffEntry::Status::DtypeMismatch) {
            const auto shape = [](const std::vector<std::uint64_t>& s) {
                std::string r;
                for (auto v : s) {
                    if (!r.empty())
                        r += 'x';
                    r += std::to_string(v);
                }
                return r.empty() ? std::string("scalar") : r;
            };
            note = shape(t.shapeA) + " " + t.dtypeA.name + " vs " + shape(t.shapeB) + " " +
                   t.dtypeB.name;
        }
        if (t.status == TensorDiffEntry::Status::Unreadable)
            note = t.error;
        if (t.nonFiniteAppeared)
            note += std::string(note.empty() ? "" : ", ") + "NaN " + std::to_string(t.nanA) + "->" +
                    std::to_string(t.nanB) + ", Inf " + std::to_string(t.infA) + "->" +
                    std::to_string(t.infB);
        tensors.addRow({t.key, TensorDiff::statusName(t.status), num(t.relChange), num(t.cosine),
                        num(t.maxAbsDiff), note});
    }
    if (!tensors.empty())
        out.append("\ntensors that differ:\n").append(tensors.render("  "));
    out += '\n';
    out += std::to_string(d.tensors.size()) + " tensors: " + std::to_string(counts[0]) + " same, " +
           std::to_string(counts[1]) + " changed, " + std::to_string(counts[2]) + " only in A, " +
           std::to_string(counts[3]) + " only in B, " +
           std::to_string(counts[4] + counts[5] + counts[6]) + " mismatched" +
           (counts[7] > 0 ? ", " + std::to_string(counts[7]) + " unreadable" : "") + "\n";
    return out;
}

} // namespace

int runDiff(const QStringList& arguments)
{
    CommandLine cl(
        QStringLiteral("diff"),
        QStringLiteral("A B [--json] [--no-optimizer] [--top N]\n       ckpt diff RUN --epochs N M "
                       "[--json] [--no-optimizer] [--top N]"),
        QStringLiteral(
            "Compares the weights of two model files (HDF5: Keras 2 model or weights, Keras 3 "
            "weights or .keras, any HDF5; torch.save zips, MindSpore, Caffe2, Synalinks "
            "variables), or of two epochs of a run. A and B are model files or epoch "
            "directories. Tensors are matched by path or name; per tensor: L2 norm of the "
            "difference, "
            "relative change ||a-b||/||a|| (infinite when a is zero and b is not), max "
            "absolute difference, cosine similarity; per layer the same over its weights, "
            "most changed first.\n"
            "Exit status 1 when NaN/Inf appear in B, tensors differ in shape or dtype, or a "
            "tensor cannot be read (the others are still compared)."));
    cl.addOption({QStringLiteral("epochs"), QStringLiteral("Compare epochs N and M of RUN."),
                  QStringLiteral("N M")});
    cl.addOption(
        {QStringLiteral("no-optimizer"),
         QStringLiteral("Leave optimizer state (optimizer_weights, optimizer/vars) out.")});
    cl.addOption({QStringLiteral("top"), QStringLiteral("Show only the N most changed layers."),
                  QStringLiteral("N"), QStringLiteral("0")});
    cl.addOption({QStringLiteral("progress-json"),
                  QStringLiteral("One JSON line per progress step on stderr (for programs "
                                 "driving ckpt, e.g. over ssh).")});
    cl.addOption({QStringLiteral("exit-on-eof"),
                  QStringLiteral("Stop when stdin closes (a client over ssh went away).")});
    // `--epochs N M`: the second number arrives as a positional argument.
    if (auto exit = cl.parse(arguments, 2, 2))
        return *exit;
    if (cl.isSet(QStringLiteral("exit-on-eof")))
        Console::exitWhenStdinCloses();
    const bool byEpochs = cl.isSet(QStringLiteral("epochs"));
    const auto top = cl.intValue(QStringLiteral("top"), 0);
    if (!top)
        return ExitUsage;

    std::string fileA;
    std::string fileB;
    if (byEpochs) {
        bool ok1 = false;
        bool ok2 = false;
        const int first = cl.value(QStringLiteral("epochs")).toInt(&ok1);
        const int second = cl.positional().at(1).toInt(&ok2);
        if (!ok1 || !ok2)
            return cl.usageError(QStringLiteral("--epochs takes two epoch numbers: --epochs N M"));
        auto files = resolveRunEpochs(cl.positional().at(0), first, second);
        if (!files) {
            return cl.fail(files.error().message);
        }
        fileA = files->first;
        fileB = files->second;
    } else {
        auto a = resolveModelArgument(cl.positional().at(0));
        auto b = resolveModelArgument(cl.positional().at(1));
        if (!a || !b) {
            return cl.fail((!a ? a.error() : b.error()).message);
        }
        fileA = *a;
        fileB = *b;
    }

    // Keras 3 .keras archives are compared through the weights file inside each.
    QTemporaryDir tmp;
    TensorDiff::Options options;
    options.includeOptimizer = !cl.isSet(QStringLiteral("no-optimizer"));
    TerminalProgress progress("comparing");
    progress.setJsonLines(cl.isSet(QStringLiteral("progress-json")));
    auto outcome = WeightsDiff::diff(fileA, fileB, tmp.path().toStdString(), "diff", options,
                                     progress.progress());
    if (!outcome) {
        return cl.fail(outcome.error().message);
    }
    ModelDiff* diff = &outcome->diff;
    bool problems = false;
    for (const TensorDiffEntry& t : diff->tensors) {
        problems = problems || t.nonFiniteAppeared ||
                   t.status == TensorDiffEntry::Status::ShapeMismatch ||
                   t.status == TensorDiffEntry::Status::DtypeMismatch ||
                   t.status == TensorDiffEntry::Status::Unreadable;
    }
    if (cl.json())
        Console::json(ModelJson::diff(*diff));
    else
        Console::out(diffText(*diff, *top));
    return problems ? ExitProblems : ExitOk;
}

} // namespace ckpt::cli
