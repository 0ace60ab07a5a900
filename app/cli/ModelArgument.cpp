#include "ModelArgument.h"

#include "RunArgument.h"
#include "launch/LaunchPrep.h"
#include "layout/Layout.h"
#include "modelfile/ModelSniffer.h"
#include "modelfile/ZipArchive.h"
#include "scan/Scanner.h"

#include <filesystem>
#include <system_error>

namespace ckpt::cli {

namespace fs = std::filesystem;

Result<std::string> resolveModelArgument(const QString& argument)
{
    const fs::path path = argument.toStdString();
    std::error_code ec;
    if (!fs::exists(path, ec))
        return Error::at(path.string(), "no such file or directory");
    if (!fs::is_directory(path, ec))
        return path.string();
    // An epoch directory: its run's layout names the model file.
    const fs::path dir = fs::absolute(path, ec).lexically_normal();
    for (fs::path root = dir.parent_path(); !root.empty() && root != root.parent_path();
         root = root.parent_path()) {
        const Layout* layout = layoutAt(root);
        if (!layout)
            continue;
        const Run run = layout->loadRun(root);
        for (const Epoch& e : run.epochs) {
            if (fs::path(run.pathOf(e)) != dir)
                continue;
            const std::string model = run.modelPath(e);
            if (model.empty()) {
                // A record the layout refused says why (a model_file outside the epoch).
                for (const Problem& p : e.problems)
                    if (p.kind == ProblemKind::BadInfo)
                        return Error::at(p.path.empty() ? path.string() : p.path, p.message);
                return Error::at(path.string(), "epoch directory without a model file");
            }
            return model;
        }
        break;
    }
    const fs::path model = path / "model.h5";
    if (fs::exists(model, ec))
        return model.string();
    // A run's folder, or one above runs, given for an epoch: say which to name.
    // Looked for a few levels down only (EXP/RUN/save/ckpts): `ckpt inspect ~`
    // must not walk a home folder. So no count: it may be short.
    Scanner::Options shallow;
    shallow.maxDepth = 4;
    if (auto found = Scanner::scan(dir, shallow); found && !found->runs.empty()) {
        const Run& run = found->runs.front();
        const bool own = found->runs.size() == 1 &&
                         (fs::path(run.root) == dir || LaunchPrep::runFolderOf(run.root) == dir);
        const std::string example = run.epochs.empty() ? run.root : run.pathOf(run.epochs.back());
        return Error::at(path.string(),
                         std::string(own ? "a run's folder" : "a folder of runs") +
                             ", not a model: name a model file or an epoch directory, such as " +
                             example +
                             " (or compare two epochs of a run: ckpt diff RUN --epochs N M)");
    }
    return Error::at(path.string(), "no model.h5 here and no run below it: name a model file or "
                                    "an epoch directory");
}

Result<std::string> hdf5ForModel(const std::string& model, const QTemporaryDir& tmp,
                                 const std::string& tag)
{
    auto sniff = ModelSniffer::sniff(model);
    if (!sniff)
        return sniff.error();
    if (sniff->format != ModelSniff::Format::Zip)
        return model; // HDF5, or an error message from the HDF5 reader later
    if (sniff->zipKind != ModelSniff::ZipKind::Keras3)
        return Error::at(model, "a " + ModelSniffer::zipKindName(sniff->zipKind) +
                                    " zip archive: only HDF5 weights (and Keras 3 .keras) "
                                    "can be read");
    const std::string dest = tmp.filePath(QString::fromStdString(tag)).toStdString();
    if (Status st = ZipArchive::extract(model, "model.weights.h5", dest); !st)
        return st.error();
    return dest;
}

Result<std::pair<std::string, std::string>> resolveRunEpochs(const QString& runArgument, int first,
                                                             int second)
{
    auto run = loadRunArgument(runArgument);
    if (!run)
        return run.error();
    std::string paths[2];
    const int numbers[2] = {first, second};
    for (int i = 0; i < 2; ++i) {
        const Epoch* epoch = run->findEpoch(numbers[i]);
        if (!epoch)
            return Error::at(run->root, "no epoch " + std::to_string(numbers[i]) + " in this run");
        paths[i] = run->modelPath(*epoch);
        if (paths[i].empty())
            return Error::at(run->pathOf(*epoch),
                             "epoch " + std::to_string(numbers[i]) + " has no model file");
    }
    return std::make_pair(paths[0], paths[1]);
}

} // namespace ckpt::cli
