#include "CommandLine.h"
#include "Commands.h"
#include "Console.h"
#include "ModelArgument.h"
#include "TextTable.h"
#include "hdf5/H5Inspector.h"
#include "hdf5/TensorStats.h"
#include "modelfile/ModelSniffer.h"
#include "report/Format.h"
#include "report/ModelJson.h"
#include "tensor/TensorSourceStats.h"

#include <QTemporaryDir>

#include <cmath>
#include <cstdio>
#include <map>

namespace ckpt::cli {

namespace {

std::string shapeText(const std::vector<std::uint64_t>& shape)
{
    std::string s = "(";
    for (std::size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}

std::string num(double v)
{
    if (std::isnan(v))
        return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

void listTree(const H5Node& node, TextTable& table)
{
    for (const H5Node& c : node.children) {
        if (!c.linkTo.empty()) {
            table.addRow({c.path, "-> " + c.linkTo, "", "", ""});
        } else if (c.dataset) {
            std::string storage = c.dataset->layout;
            if (!c.dataset->chunk.empty())
                storage.append(" ").append(shapeText(c.dataset->chunk));
            for (const std::string& f : c.dataset->filters)
                storage += " " + f;
            if (!c.dataset->unread.empty())
                storage.append(", not read: ").append(c.dataset->unread);
            table.addRow({c.path, shapeText(c.dataset->shape), c.dataset->dtype.name,
                          Format::bytes(static_cast<double>(c.dataset->bytes)), storage});
        } else if (c.kind == H5Node::Kind::Group) {
            listTree(c, table);
        }
    }
}

std::string hdf5Text(const H5Report& report, const std::vector<TensorStats::Entry>* stats)
{
    std::string out;
    const KerasSummary& k = report.keras;
    out += std::to_string(report.groups) + " groups, " + std::to_string(report.datasets) +
           " datasets, " + Format::bytes(static_cast<double>(report.datasetBytes)) + " of data\n";
    if (k.layout != KerasSummary::Layout::None) {
        out += "keras: " + H5Inspector::layoutName(k.layout);
        if (!k.kerasVersion.empty())
            out += ", version " + k.kerasVersion;
        if (!k.backend.empty())
            out += ", backend " + k.backend;
        if (!k.modelClass.empty())
            out += ", model " + k.modelClass;
        if (!k.optimizerClass.empty())
            out += ", optimizer " + k.optimizerClass;
        out += ", " + std::to_string(k.totalParams) + " parameters\n\n";
        TextTable layers({"layer", "class", "weights", "params"}, {false, false, false, true});
        for (const KerasLayer& l : k.layers) {
            std::string weights;
            for (const KerasWeight& w : l.weights)
                weights += (weights.empty() ? "" : "  ") + w.name + " " + shapeText(w.shape) +
                           (w.dtype.name == "float32" ? "" : " " + w.dtype.name);
            layers.addRow({l.name, l.className, weights, std::to_string(l.params)});
        }
        out += layers.render("  ");
        if (!k.optimizerWeights.empty())
            out += "  optimizer: " + std::to_string(k.optimizerWeights.size()) + " weights\n";
        for (const std::string& note : k.notes)
            out += "note: " + note + "\n";
    } else {
        TextTable tree({"dataset", "shape", "dtype", "size", "storage"},
                       {false, false, false, true, false});
        listTree(report.root, tree);
        out += "\n" + tree.render("  ");
    }
    if (stats && !stats->empty()) {
        TextTable table({"tensor", "dtype", "min", "max", "mean", "std", "nan", "inf", "zeros"},
                        {false, false, true, true, true, true, true, true, true});
        std::string errors;
        for (const TensorStats::Entry& e : *stats) {
            const ValueStats& s = e.stats;
            if (!e.error.empty()) {
                // The row stays, so the table lists every tensor; why is said below it.
                table.addRow({e.path, e.info.dtype.name, "not read", "-", "-", "-", "-", "-", "-"});
                errors.append("error: ").append(e.error).append("\n");
                continue;
            }
            table.addRow({e.path, e.info.dtype.name, num(s.min), num(s.max), num(s.mean),
                          num(s.stddev), std::to_string(s.nan), std::to_string(s.inf),
                          std::to_string(s.zeros)});
        }
        out += "\n" + table.render("  ") + errors;
    }
    return out;
}

// A torch, MindSpore, Caffe2 or Synalinks file: its reader's tensor list and,
// unless told not to, statistics streamed from it.
int inspectSource(const CommandLine& cl, const std::string& model, std::uint64_t fileBytes)
{
    auto source = TensorSources::open(model);
    if (!source)
        return cl.fail(source.error().message);
    std::optional<std::vector<TensorSourceStats::Entry>> stats;
    if (!cl.isSet(QStringLiteral("no-stats"))) {
        TerminalProgress progress("reading tensors");
        progress.setJsonLines(cl.isSet(QStringLiteral("progress-json")));
        auto computed = TensorSourceStats::of(**source, progress.progress());
        if (!computed)
            return cl.fail(computed.error().message);
        stats = std::move(computed.value());
    }
    bool problems = !(*source)->problems().empty();
    if (stats) {
        for (const TensorSourceStats::Entry& e : *stats)
            problems = problems || e.stats.nan > 0 || e.stats.inf > 0 || !e.error.empty();
    }
    if (cl.json()) {
        Console::json(ModelJson::inspect(**source, fileBytes, stats ? &*stats : nullptr));
        return problems ? ExitProblems : ExitOk;
    }
    const TensorSource& src = **source;
    std::uint64_t dataBytes = 0;
    for (const TensorInfo& t : src.tensors())
        dataBytes += t.bytes;
    std::string out = model + ": " + std::string(src.format()) + ", " +
                      Format::bytes(static_cast<double>(fileBytes)) + ", " +
                      std::to_string(src.tensors().size()) + " tensors, " +
                      Format::bytes(static_cast<double>(dataBytes)) + " of data\n";
    for (const auto& [key, value] : src.attributes())
        out += key + ": " + value + "\n";
    std::map<std::string, const TensorSourceStats::Entry*> byName;
    std::string errors;
    if (stats) {
        for (const TensorSourceStats::Entry& e : *stats) {
            byName[e.info.name] = &e;
            if (!e.error.empty())
                errors.append("error: ").append(e.error).append("\n");
        }
    }
    TextTable table({"tensor", "shape", "dtype", "size", "min", "max", "mean", "std", "nan", "inf"},
                    {false, false, false, true, true, true, true, true, true, true});
    for (const TensorInfo& t : src.tensors()) {
        std::vector<std::string> row{t.name + (t.optimizerState ? " (optimizer)" : ""),
                                     shapeText(t.shape), t.dtype.name,
                                     Format::bytes(static_cast<double>(t.bytes))};
        if (auto it = byName.find(t.name); it != byName.end() && !it->second->error.empty()) {
            row.push_back("not read"); // why is said below the table
            row.insert(row.end(), 5, "-");
        } else if (it != byName.end()) {
            const ValueStats& v = it->second->stats;
            for (const std::string& cell : {num(v.min), num(v.max), num(v.mean), num(v.stddev),
                                            std::to_string(v.nan), std::to_string(v.inf)})
                row.push_back(cell);
        } else {
            row.insert(row.end(), 6, "");
        }
        table.addRow(row);
    }
    out += "\n" + table.render("  ") + errors;
    for (const std::string& p : src.problems())
        out += "problem: " + p + "\n";
    Console::out(out);
    return problems ? ExitProblems : ExitOk;
}

} // namespace

int runInspect(const QStringList& arguments)
{
    CommandLine cl(
        QStringLiteral("inspect"), QStringLiteral("MODEL|EPOCH_DIR [--no-stats] [--json]"),
        QStringLiteral("Looks inside a model file, recognised by its content: HDF5 (Keras 2 "
                       "model or weights, Keras 3 weights, any HDF5: groups, datasets, "
                       "attributes, per-tensor statistics), Keras 3 .keras, torch.save zip, "
                       "MindSpore .ckpt, Caffe2 minidb, Synalinks variables JSON (tensors, "
                       "shapes, dtypes, statistics); another zip shows its entries. An epoch "
                       "directory stands for its model file.\n"
                       "Exit status 1 when a tensor holds NaN or Inf, or the Keras metadata "
                       "names weights that are missing."));
    cl.addOption(
        {QStringLiteral("no-stats"), QStringLiteral("Skip the statistics (reads metadata only).")});
    cl.addOption({QStringLiteral("progress-json"),
                  QStringLiteral("One JSON line per progress step on stderr (for programs "
                                 "driving ckpt, e.g. over ssh).")});
    cl.addOption({QStringLiteral("exit-on-eof"),
                  QStringLiteral("Stop when stdin closes (a client over ssh went away).")});
    if (auto exit = cl.parse(arguments, 1, 1))
        return *exit;
    if (cl.isSet(QStringLiteral("exit-on-eof")))
        Console::exitWhenStdinCloses();
    auto model = resolveModelArgument(cl.positional().first());
    if (!model) {
        return cl.fail(model.error().message);
    }
    auto sniff = ModelSniffer::sniff(*model);
    if (!sniff) {
        return cl.fail(sniff.error().message);
    }
    const bool hdf5Weights =
        sniff->format == ModelSniff::Format::Hdf5 || sniff->zipKind == ModelSniff::ZipKind::Keras3;
    // A zip whose tensors cannot be read (a damaged data.pkl) still shows its
    // listing, with why, as a problem.
    std::string unreadable;
    if (!hdf5Weights && TensorSources::recognises(*model)) {
        if (sniff->format != ModelSniff::Format::Zip)
            return inspectSource(cl, *model, sniff->fileBytes);
        auto probe = TensorSources::open(*model);
        if (probe)
            return inspectSource(cl, *model, sniff->fileBytes);
        unreadable = probe.error().message;
    }
    if (sniff->format == ModelSniff::Format::Unknown) {
        return cl.fail(*model + ": not a model file (" + sniff->hint + "): neither HDF5 nor zip");
    }
    std::string hdf5 = *model;
    std::string display = *model;
    QTemporaryDir tmp;
    std::string zipText;
    if (sniff->format == ModelSniff::Format::Zip) {
        zipText = *model + ": zip archive (" + ModelSniffer::zipKindName(sniff->zipKind) + "), " +
                  Format::bytes(static_cast<double>(sniff->fileBytes)) + "\n";
        TextTable table({"entry", "size", "compressed"}, {false, true, true});
        for (const ZipEntry& e : sniff->entries)
            table.addRow({e.name, Format::bytes(static_cast<double>(e.size)),
                          Format::bytes(static_cast<double>(e.compressedSize))});
        zipText += table.render("  ");
        if (sniff->zipKind != ModelSniff::ZipKind::Keras3) {
            if (cl.json()) {
                nlohmann::ordered_json j = ModelJson::inspect(*sniff, nullptr, nullptr);
                if (!unreadable.empty())
                    j["problems"] = {unreadable};
                Console::json(j);
            } else {
                Console::out(zipText + (unreadable.empty() ? "" : "problem: " + unreadable + "\n"));
            }
            return unreadable.empty() ? ExitOk : ExitProblems;
        }
        // A Keras 3 .keras archive: its weights are an HDF5 file inside.
        auto extracted = hdf5ForModel(*model, tmp, "model.weights.h5");
        if (!extracted) {
            return cl.fail(extracted.error().message);
        }
        hdf5 = *extracted;
        display = *model + "!model.weights.h5";
    }
    // Errors and output name the file as the user knows it, not the extracted copy.
    const auto named = [&](std::string text) {
        if (hdf5 != display) {
            for (std::size_t at = text.find(hdf5); at != std::string::npos;
                 at = text.find(hdf5, at + display.size()))
                text.replace(at, hdf5.size(), display);
        }
        return text;
    };
    auto report = H5Inspector::inspect(hdf5);
    if (!report) {
        return cl.fail(named(report.error().message));
    }
    report->file = display;
    std::optional<std::vector<TensorStats::Entry>> stats;
    if (!cl.isSet(QStringLiteral("no-stats"))) {
        TerminalProgress progress("reading tensors");
        progress.setJsonLines(cl.isSet(QStringLiteral("progress-json")));
        auto computed = TensorStats::ofFile(hdf5, progress.progress());
        if (!computed) {
            return cl.fail(named(computed.error().message));
        }
        stats = std::move(computed.value());
    }
    bool problems = !report->keras.notes.empty();
    if (stats) {
        for (const TensorStats::Entry& e : *stats)
            problems = problems || e.stats.nan > 0 || e.stats.inf > 0 || !e.error.empty();
    }
    if (cl.json()) {
        if (sniff->format == ModelSniff::Format::Zip) {
            nlohmann::ordered_json j = ModelJson::inspect(*sniff, nullptr, nullptr);
            ModelSniff inner;
            inner.path = display;
            inner.format = ModelSniff::Format::Hdf5;
            for (const ZipEntry& e : sniff->entries) {
                if (e.name == "model.weights.h5")
                    inner.fileBytes = e.size;
            }
            j["weights"] = ModelJson::inspect(inner, &*report, stats ? &*stats : nullptr);
            Console::json(j);
        } else {
            Console::json(ModelJson::inspect(*sniff, &*report, stats ? &*stats : nullptr));
        }
    } else {
        std::string head =
            zipText.empty()
                ? *model + ": HDF5, " + Format::bytes(static_cast<double>(sniff->fileBytes)) + "\n"
                : zipText + "\n" + display + ":\n";
        Console::out(head + hdf5Text(*report, stats ? &*stats : nullptr));
    }
    return problems ? ExitProblems : ExitOk;
}

} // namespace ckpt::cli
