#include "ModelArgument.h"

#include "RunArgument.h"
#include "candle/CkptInfoReader.h"
#include "modelfile/ModelSniffer.h"
#include "modelfile/ZipArchive.h"

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
    std::string name = "model.h5";
    const fs::path info = path / "ckpt-info.json";
    if (fs::exists(info, ec)) {
        auto read = CkptInfoReader::readFile(info);
        if (read && read->modelFile && !read->modelFile->empty()) {
            if (auto why = CkptInfoReader::modelFileProblem(*read->modelFile))
                return Error::at(info.string(), *why);
            name = *read->modelFile;
        }
    }
    const fs::path model = path / name;
    if (!fs::exists(model, ec))
        return Error::at(path.string(), "epoch directory without a model file (" + name + ")");
    return model.string();
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
        if (epoch->modelPath.empty())
            return Error::at(epoch->dir,
                             "epoch " + std::to_string(numbers[i]) + " has no model file");
        paths[i] = epoch->modelPath;
    }
    return std::make_pair(paths[0], paths[1]);
}

} // namespace ckpt::cli
